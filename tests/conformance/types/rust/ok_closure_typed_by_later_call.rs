struct Fmt { f: fn(&str, usize) -> String }
fn main() {
    let pad = |s: String, n| {
        let mut out = s;
        while out.len() < n { out = " ".to_string() + &out }
        out
    };
    println!("{}", format!("[{}]", pad("ab".to_string(), 5)));
    let k = Fmt { f: |s, n| s.repeat(n) };
    println!("{}", (k.f)("xy", 3));
}
