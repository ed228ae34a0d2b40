//! LZString's base64 form (pieroxy's lz-string, `compressToBase64` and
//! `decompressFromBase64`), which f-puzzles links carry after `?load=`:
//! an LZW stream over UTF-16 code units, six bits per base64 character.

/// The base64 alphabet lz-string uses (`=` pads).
const ALPHABET: &[u8; 65] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=";

/// The text `compressToBase64` made `input` from; `None` when it is not
/// such a stream (a character outside the alphabet, a code pointing past
/// the dictionary, or no end mark).
pub fn decompress_from_base64(input: &str) -> Option<String> {
    let values: Vec<u32> = input
        .bytes()
        .map(|b| ALPHABET.iter().position(|&a| a == b).map(|p| p as u32))
        .collect::<Option<_>>()?;
    let units = decompress(&values, 32)?;
    String::from_utf16(&units).ok()
}

/// Reads bits lowest first from six-bit values, as lz-string does.
struct Bits<'a> {
    values: &'a [u32],
    reset: u32,
    val: u32,
    position: u32,
    index: usize,
}

impl Bits<'_> {
    /// The next `count` bits as a number, lowest bit first (zeros past the
    /// end, as lz-string reads them).
    fn read(&mut self, count: u32) -> Option<u32> {
        let mut bits = 0;
        for power in 0..count {
            let bit = self.val & self.position;
            self.position >>= 1;
            if self.position == 0 {
                self.position = self.reset;
                self.val = *self.values.get(self.index).unwrap_or(&0);
                self.index += 1;
            }
            if bit > 0 {
                bits |= 1 << power;
            }
        }
        Some(bits)
    }
}

/// lz-string's `_decompress` over `values` (each `reset`'s bit first).
fn decompress(values: &[u32], reset: u32) -> Option<Vec<u16>> {
    let first = *values.first()?;
    let mut bits = Bits {
        values,
        reset,
        val: first,
        position: reset,
        index: 1,
    };
    // Codes 0-2 are the markers: an 8-bit or a 16-bit character follows, or
    // the end.
    let mut dictionary: Vec<Vec<u16>> = vec![Vec::new(); 3];
    let (mut enlarge_in, mut num_bits) = (4u32, 3u32);
    let c = match bits.read(2)? {
        0 => bits.read(8)? as u16,
        1 => bits.read(16)? as u16,
        _ => return Some(Vec::new()),
    };
    dictionary.push(vec![c]);
    let mut w = vec![c];
    let mut result = w.clone();
    loop {
        if bits.index > values.len() {
            return None;
        }
        let mut code = bits.read(num_bits)? as usize;
        match code {
            0 | 1 => {
                let width = if code == 0 { 8 } else { 16 };
                dictionary.push(vec![bits.read(width)? as u16]);
                code = dictionary.len() - 1;
                enlarge_in -= 1;
            }
            2 => return Some(result),
            _ => {}
        }
        if enlarge_in == 0 {
            enlarge_in = 1 << num_bits;
            num_bits += 1;
        }
        let entry = if let Some(known) = dictionary.get(code).filter(|e| !e.is_empty()) {
            known.clone()
        } else if code == dictionary.len() {
            let mut e = w.clone();
            e.push(w[0]);
            e
        } else {
            return None;
        };
        result.extend_from_slice(&entry);
        let mut next = w.clone();
        next.push(entry[0]);
        dictionary.push(next);
        enlarge_in -= 1;
        w = entry;
        if enlarge_in == 0 {
            enlarge_in = 1 << num_bits;
            num_bits += 1;
        }
    }
}

/// Writes bits into six-bit values, highest first within each, as
/// lz-string's compressor does.
struct Writer {
    out: Vec<u8>,
    val: u32,
    position: u32,
}

impl Writer {
    fn bit(&mut self, b: u32) {
        self.val = (self.val << 1) | b;
        if self.position == 5 {
            self.position = 0;
            self.out.push(ALPHABET[self.val as usize]);
            self.val = 0;
        } else {
            self.position += 1;
        }
    }

    /// `count` bits of `value`, lowest first.
    fn number(&mut self, mut value: u32, count: u32) {
        for _ in 0..count {
            self.bit(value & 1);
            value >>= 1;
        }
    }
}

/// lz-string's compressor: its dictionary of strings seen, the characters
/// not yet spelled out, and how wide codes are now.
struct Compressor {
    out: Writer,
    dictionary: std::collections::HashMap<Vec<u16>, u32>,
    to_create: std::collections::HashSet<Vec<u16>>,
    enlarge_in: u32,
    num_bits: u32,
}

impl Compressor {
    /// One more code written: codes widen by a bit when the dictionary
    /// outgrows them.
    fn grow(&mut self) {
        self.enlarge_in -= 1;
        if self.enlarge_in == 0 {
            self.enlarge_in = 1 << self.num_bits;
            self.num_bits += 1;
        }
    }

    /// Emits the code of `w` (a character new to the stream first spelled out).
    fn emit(&mut self, w: &[u16]) {
        if self.to_create.remove(w) {
            let c = u32::from(w[0]);
            let (marker, width) = if c < 256 { (0, 8) } else { (1, 16) };
            self.out.number(marker, self.num_bits);
            self.out.number(c, width);
            self.grow();
        } else {
            let code = self.dictionary.get(w).copied().unwrap_or(0);
            self.out.number(code, self.num_bits);
        }
        self.grow();
    }
}

/// `compressToBase64`: the text as lz-string's base64 stream (padded with
/// `=` to a multiple of four).
pub fn compress_to_base64(input: &str) -> String {
    let mut z = Compressor {
        out: Writer {
            out: Vec::new(),
            val: 0,
            position: 0,
        },
        dictionary: Default::default(),
        to_create: Default::default(),
        enlarge_in: 2,
        num_bits: 2,
    };
    let mut dict_size = 3u32;
    let mut w: Vec<u16> = Vec::new();
    for c in input.encode_utf16() {
        let single = vec![c];
        if !z.dictionary.contains_key(&single) {
            z.dictionary.insert(single.clone(), dict_size);
            dict_size += 1;
            z.to_create.insert(single);
        }
        let mut wc = w.clone();
        wc.push(c);
        if z.dictionary.contains_key(&wc) {
            w = wc;
        } else {
            z.emit(&w);
            z.dictionary.insert(wc, dict_size);
            dict_size += 1;
            w = vec![c];
        }
    }
    if !w.is_empty() {
        z.emit(&w);
    }
    let mut out = z.out;
    out.number(2, z.num_bits);
    // Flush the last character.
    loop {
        out.val <<= 1;
        if out.position == 5 {
            out.out.push(ALPHABET[out.val as usize]);
            break;
        }
        out.position += 1;
    }
    let mut text = String::from_utf8(out.out).unwrap_or_default();
    while !text.len().is_multiple_of(4) {
        text.push('=');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_text() {
        for text in [
            "",
            "a",
            "hello hello hello",
            "{\"size\":9,\"grid\":[[{}]]}",
            "ünïcödé ☃ and more ☃☃",
        ] {
            let packed = compress_to_base64(text);
            assert_eq!(
                decompress_from_base64(&packed).as_deref(),
                Some(text),
                "{packed}"
            );
        }
    }

    #[test]
    fn refuses_what_is_not_a_stream() {
        assert_eq!(decompress_from_base64("!!!"), None);
    }
}
