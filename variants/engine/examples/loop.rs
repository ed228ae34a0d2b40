//! Scratch: time N counts of each puzzle in a jsonl file.
use engine::corpus::from_corpus;
use engine::v1::from_v1;
use protocol::corpus::CorpusPuzzle;
use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let reps: usize = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(100);
    let text = std::fs::read_to_string(&path).unwrap();
    for line in text.lines() {
        let p: CorpusPuzzle = serde_json::from_str(line).unwrap();
        let puzzle = from_v1(&from_corpus(&p).unwrap()).unwrap().puzzle;
        let start = Instant::now();
        for _ in 0..reps { assert!(!puzzle.count_within(2, 1_000_000).gave_up); }
        println!("{:<14} {:>9.3} ms", &p.id[..p.id.len().min(14)], start.elapsed().as_secs_f64() * 1000.0 / reps as f64);
    }
}
