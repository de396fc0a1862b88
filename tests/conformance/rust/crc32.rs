// CRC-32 (IEEE) with a table built at start, and Adler-32.
fn make_table() -> Vec<u32> {
    let mut t = vec![0u32; 256];
    for i in 0..256 {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xEDB88320 ^ (c >> 1) } else { c >> 1 };
        }
        t[i] = c;
    }
    t
}

fn crc32(t: &[u32], data: &[u8]) -> u32 {
    let mut c = 0xFFFFFFFFu32;
    for &b in data {
        c = t[((c ^ b as u32) & 0xff) as usize] ^ (c >> 8);
    }
    c ^ 0xFFFFFFFF
}

fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &x in data {
        a = (a + x as u32) % 65521;
        b = (b + a) % 65521;
    }
    (b << 16) | a
}

fn main() {
    let t = make_table();
    for s in ["", "a", "abc", "The quick brown fox jumps over the lazy dog"] {
        println!("{:08x} {:08x} {}", crc32(&t, s.as_bytes()), adler32(s.as_bytes()), s.len());
    }
}
