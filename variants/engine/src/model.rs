//! A puzzle's rules prepared for solving: the [`Rules`] and the tables each
//! solver builds from them once (the bitboard solver's, the logical solver's
//! layout). A [`Model`] is built once and then shared by every puzzle that uses
//! it; it reads as its rules (`Deref`).

use crate::bits::BitTables;
use crate::error::PuzzleError;
use crate::logic::grid::Layout;
use crate::rules::{ModelBuilder, Rules};
use std::ops::Deref;
use std::sync::OnceLock;

/// The rules of a variant with the solvers' tables.
#[derive(Clone, Debug)]
pub struct Model {
    rules: Rules,
    /// The bitboard solver's tables (none for models it cannot take).
    bits: Option<BitTables>,
    /// What the logical solver needs of the layout, built on first use.
    logic: OnceLock<Layout>,
}

impl Model {
    /// Prepares `rules` for solving.
    pub fn new(rules: Rules) -> Model {
        Model {
            bits: BitTables::new(&rules),
            rules,
            logic: OnceLock::new(),
        }
    }
    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The bitboard solver's tables, when it can take this model.
    pub(crate) fn bits(&self) -> Option<&BitTables> {
        self.bits.as_ref()
    }
    /// The layout facts the logical solver uses (built once per model).
    pub(crate) fn logic_layout(&self) -> &Layout {
        self.logic.get_or_init(|| Layout::new(&self.rules))
    }
}

impl Deref for Model {
    type Target = Rules;
    fn deref(&self) -> &Rules {
        &self.rules
    }
}

impl ModelBuilder {
    /// Validates everything and prepares the model for solving.
    pub fn build(self) -> Result<Model, PuzzleError> {
        self.rules().map(Model::new)
    }
}
