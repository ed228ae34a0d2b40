//! Scratch: fewest node budget per corpus puzzle and time per count.
use engine::corpus::from_corpus;
use engine::v1::from_v1;
use protocol::corpus::CorpusPuzzle;
use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).unwrap_or("/work/shared/datasets/variants/puzzles.jsonl".into());
    let reps: usize = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let text = std::fs::read_to_string(&path).unwrap();
    for line in text.lines() {
        let p: CorpusPuzzle = serde_json::from_str(line).unwrap();
        let puzzle = from_v1(&from_corpus(&p).unwrap()).unwrap().puzzle;
        let (mut lo, mut hi) = (0usize, 400_000usize);
        if puzzle.count_within(2, hi).gave_up { println!("{:<10} >{hi}", &p.id[..p.id.len().min(10)]); continue; }
        while lo < hi { let mid = (lo + hi) / 2; if puzzle.count_within(2, mid).gave_up { lo = mid + 1 } else { hi = mid } }
        let start = Instant::now();
        for _ in 0..reps { puzzle.count_within(2, 1_000_000); }
        let ms = start.elapsed().as_secs_f64() * 1000.0 / reps as f64;
        println!("{:<14} {:>7} nodes {:>9.3} ms  {}", &p.id[..p.id.len().min(14)], hi, ms, p.tags.join(","));
    }
}
