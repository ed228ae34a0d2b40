//! Quick races: a public race that starts by itself. With its second player it
//! is armed to start a short wait later (`Config::quick_wait`), at once when
//! it is full; below two players again it waits for a second. Nobody is host
//! of the start.

use super::state::{QuickStart, Room};
use protocol::wire::RoomState;
use tokio::time::Instant;

impl Room {
    /// Arms, starts or disarms a waiting quick race after its seats changed:
    /// full, it starts now; two or more, it starts `quick_wait` after the
    /// second arrived; fewer, it waits. Whether it started now.
    pub(super) async fn arm_quick_start(&mut self) -> bool {
        self.arm_quick_timer() && self.start_quick().await
    }

    /// Sets or clears the quick race's timer by its seats (also for a room
    /// read back from the store); whether it is full and should start now.
    pub(super) fn arm_quick_timer(&mut self) -> bool {
        if !self.settings.quick || self.play.phase != RoomState::Waiting {
            self.quick_start = None;
            return false;
        }
        let seated = self.seats.len();
        if seated >= self.settings.max_players as usize {
            return true;
        }
        if seated < 2 {
            self.quick_start = None;
        } else if self.quick_start.is_none() {
            self.quick_start = Some(QuickStart {
                at: Instant::now() + self.quick_wait,
                at_ms: crate::serve::clock::now_ms() + self.quick_wait.as_secs_f64() * 1e3,
            });
        }
        false
    }

    /// When the armed quick race is due to start, for the room task's timer.
    pub(super) fn quick_start_due(&self) -> Option<Instant> {
        self.quick_start.map(|q| q.at)
    }

    /// Starts the quick race (its countdown) on its timer or when full.
    pub(super) async fn start_quick(&mut self) -> bool {
        self.quick_start = None;
        let host = self.play.host.clone();
        self.start(&host).await
    }
}
