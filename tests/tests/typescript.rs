//! The web client's TypeScript types are generated from the Rust wire types, and
//! this test fails when the committed file (`client-web/src/protocol.ts`) drifts
//! from them. Regenerate with:
//! `UPDATE_TS=1 cargo test -p arena-tests --test typescript`.

use protocol::plugin::{ClueRange, Hint, HintKind, Manifest, ParamSpec};
use protocol::setter::{Analysis, AnalysisStep, PuzzleCheck, SetterDraft};
use protocol::wire::{
    BoardKind, BoardRow, CellMarks, ClientMessage, Contribution, CoopChange, ErrorCode,
    FlaggedTime, GhostRun, HintPolicy, MistakePolicy, Mode, PlayerBoard, PlayerView, RaceReview,
    Rank, RatingChange, RatingRow, ReviewAct, ReviewRacer, ReviewStep, RoomSettings, RoomState,
    RoomSummary, RoomView, ServerMessage, ShareLink, StandingRow, StatRow, TierTime,
    TournamentState, TournamentSummary, TournamentView,
};
use protocol::{
    Axis, Cage, Constraint, Drawing, House, HouseKind, Layout, ParamValue, PuzzleGrade, PuzzleV1,
    ShapeKind,
};
use std::path::Path;
use ts_rs::{Config, TS};

/// One `export type` per type, in a stable order.
fn generate() -> String {
    let cfg = Config::default();
    let decls = [
        ParamValue::decl(&cfg),
        Layout::decl(&cfg),
        HouseKind::decl(&cfg),
        House::decl(&cfg),
        Cage::decl(&cfg),
        Axis::decl(&cfg),
        Constraint::decl(&cfg),
        ShapeKind::decl(&cfg),
        Drawing::decl(&cfg),
        PuzzleGrade::decl(&cfg),
        PuzzleV1::decl(&cfg),
        SetterDraft::decl(&cfg),
        PuzzleCheck::decl(&cfg),
        AnalysisStep::decl(&cfg),
        Analysis::decl(&cfg),
        ParamSpec::decl(&cfg),
        ClueRange::decl(&cfg),
        Manifest::decl(&cfg),
        HintKind::decl(&cfg),
        Hint::decl(&cfg),
        Mode::decl(&cfg),
        MistakePolicy::decl(&cfg),
        HintPolicy::decl(&cfg),
        RoomSettings::decl(&cfg),
        RoomState::decl(&cfg),
        RoomSummary::decl(&cfg),
        PlayerView::decl(&cfg),
        PlayerBoard::decl(&cfg),
        RoomView::decl(&cfg),
        Rank::decl(&cfg),
        BoardRow::decl(&cfg),
        FlaggedTime::decl(&cfg),
        RatingChange::decl(&cfg),
        RaceReview::decl(&cfg),
        ReviewAct::decl(&cfg),
        ReviewRacer::decl(&cfg),
        ReviewStep::decl(&cfg),
        TierTime::decl(&cfg),
        StandingRow::decl(&cfg),
        TournamentState::decl(&cfg),
        TournamentSummary::decl(&cfg),
        TournamentView::decl(&cfg),
        RatingRow::decl(&cfg),
        GhostRun::decl(&cfg),
        ShareLink::decl(&cfg),
        BoardKind::decl(&cfg),
        StatRow::decl(&cfg),
        Contribution::decl(&cfg),
        CellMarks::decl(&cfg),
        CoopChange::decl(&cfg),
        ErrorCode::decl(&cfg),
        ClientMessage::decl(&cfg),
        ServerMessage::decl(&cfg),
    ];
    let mut out = String::from(
        "// Generated from the Rust types in protocol/ by tests/tests/typescript.rs.\n\
         // Do not edit: run `UPDATE_TS=1 cargo test -p arena-tests --test typescript`.\n\
         // Frames are MessagePack with named fields; `Params` is a string-keyed map.\n\n\
         export type Params = { [key: string]: ParamValue };\n\n",
    );
    for decl in decls {
        out.push_str("export ");
        out.push_str(&decl);
        out.push_str("\n\n");
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

#[test]
fn typescript_types_match_the_rust_ones() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../client-web/src/protocol.ts");
    let fresh = generate();
    if std::env::var_os("UPDATE_TS").is_some() {
        std::fs::write(&path, &fresh).expect("write protocol.ts");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{} is out of date: run `UPDATE_TS=1 cargo test -p arena-tests --test typescript`",
        path.display()
    );
}
