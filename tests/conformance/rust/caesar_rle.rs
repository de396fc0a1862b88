// String transforms: Caesar cipher, run-length encoding and decoding, palindromes.
fn caesar(s: &str, k: u8) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_lowercase() {
                (((c as u8 - b'a' + k) % 26) + b'a') as char
            } else if c.is_ascii_uppercase() {
                (((c as u8 - b'A' + k) % 26) + b'A') as char
            } else {
                c
            }
        })
        .collect()
}

fn rle(s: &str) -> String {
    let mut out = String::new();
    let cs: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let mut j = i;
        while j < cs.len() && cs[j] == cs[i] {
            j += 1;
        }
        out.push_str(&format!("{}{}", j - i, cs[i]));
        i = j;
    }
    out
}

fn unrle(s: &str) -> String {
    let mut out = String::new();
    let mut n = 0;
    for c in s.chars() {
        if let Some(d) = c.to_digit(10) {
            n = n * 10 + d as usize;
        } else {
            out.push_str(&c.to_string().repeat(n));
            n = 0;
        }
    }
    out
}

fn is_pal(s: &str) -> bool {
    let cs: Vec<char> = s.chars().filter(|c| c.is_alphanumeric()).map(|c| c.to_ascii_lowercase()).collect();
    cs.iter().eq(cs.iter().rev())
}

fn main() {
    let e = caesar("Hello, World!", 3);
    println!("{} {}", e, caesar(&e, 23));
    let r = rle("aaabccddddde");
    println!("{} {}", r, unrle(&r));
    for s in ["A man, a plan, a canal: Panama", "hello", ""] {
        println!("{:?} {}", s, is_pal(s));
    }
}
