//! Leaderboard and profile queries with many recorded games: the server's
//! in-memory boards (`server::serve::records::Boards`), filled with 100,000
//! records — 20,000 players over 10 (variant, difficulty) kinds and 100 days of
//! puzzles of the day, half of the games dailies — then 20,000 queries of each
//! board and of profiles, for random players. Prints p50, p99 and the worst.
//!
//! Run: `cargo bench -p arena-tests --bench leaderboards [-- --records N]`.

use protocol::plugin::Params;
use protocol::wire::{BoardKind, Mode};
use rand::{Rng, SeedableRng};
use server::daily::Date;
use server::serve::records::{BoardQuery, Boards, GameRecord};
use std::time::Instant;

const PLAYERS: usize = 20_000;
const DAYS: i64 = 100;
const QUERIES: usize = 20_000;
const DIFFICULTIES: [&str; 4] = ["easy", "medium", "hard", "extreme"];
const VARIANTS: [&str; 3] = ["classic", "jigsaw", "gattai"];

fn main() {
    let records: usize = std::env::args()
        .collect::<Vec<_>>()
        .windows(2)
        .find(|w| w[0] == "--records")
        .map_or(100_000, |w| w[1].parse().expect("--records N"));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let first_day: Date = "2026-08-17".parse().expect("date");
    let day_ms = 86_400_000.0;
    let start_ms = first_day.days_since_epoch() as f64 * day_ms;
    let kinds: Vec<(&str, &str)> = VARIANTS
        .iter()
        .flat_map(|v| DIFFICULTIES.iter().map(move |d| (*v, *d)))
        .take(10)
        .collect();
    let boards = Boards::default();
    let filled = Instant::now();
    for i in 0..records {
        let (variant, difficulty) = kinds[rng.gen_range(0..kinds.len())];
        let day = rng.gen_range(0..DAYS);
        let player = rng.gen_range(0..PLAYERS);
        boards.add(&GameRecord {
            plausible_ms: 0,
            player: format!("p{player}"),
            name: format!("Player {player}"),
            variant: variant.into(),
            params: Params::new(),
            difficulty: difficulty.into(),
            daily: (i % 2 == 0).then(|| first_day.plus(day).to_string()),
            mode: Mode::Solo,
            time_ms: rng.gen_range(60_000..3_600_000),
            penalty_ms: 0,
            mistakes: 0,
            hints: 0,
            at_ms: start_ms + day as f64 * day_ms + rng.gen_range(0.0..day_ms),
            room: "bench".into(),
            moves: Vec::new(),
        });
    }
    println!(
        "{records} records ({PLAYERS} players, {} kinds, {DAYS} days) added in {:.0} ms",
        kinds.len(),
        filled.elapsed().as_secs_f64() * 1e3
    );
    println!("| query | p50 µs | p99 µs | worst µs |");
    println!("|---|---:|---:|---:|");
    let now_ms = start_ms + (DAYS - 1) as f64 * day_ms + day_ms / 2.0;
    let params = Params::new();
    for (label, board) in [
        ("daily board", Some(BoardKind::Daily)),
        ("weekly board", Some(BoardKind::Weekly)),
        ("all-time board", Some(BoardKind::AllTime)),
        ("profile", None),
    ] {
        let mut micros = Vec::with_capacity(QUERIES);
        for _ in 0..QUERIES {
            let me = format!("p{}", rng.gen_range(0..PLAYERS));
            let (variant, difficulty) = kinds[rng.gen_range(0..kinds.len())];
            let date = first_day.plus(rng.gen_range(0..DAYS));
            let started = Instant::now();
            let answer = match board {
                Some(board) => boards.view(&BoardQuery {
                    board,
                    variant,
                    params: &params,
                    difficulty,
                    date,
                    now_ms,
                    me: &me,
                }),
                None => boards.profile(&me, 60, now_ms),
            };
            micros.push(started.elapsed().as_secs_f64() * 1e6);
            std::hint::black_box(answer);
        }
        micros.sort_by(f64::total_cmp);
        println!(
            "| {label} | {:.1} | {:.1} | {:.1} |",
            micros[QUERIES / 2],
            micros[QUERIES * 99 / 100],
            micros[QUERIES - 1]
        );
    }
}
