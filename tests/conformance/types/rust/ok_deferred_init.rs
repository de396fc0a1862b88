// Rust twin of ok_deferred_init.mty.
fn pick(c: i64) -> i64 {
    let x: i64;
    if c > 2 { x = 10 } else { x = 20 }
    x
}

fn main() {
    println!("{}", pick(3));
    println!("{}", pick(1));
    let y: String;
    y = "late".to_string();
    println!("{}", y);
    let z: i64;
    match pick(3) {
        10 => z = 1,
        _ => z = 2,
    }
    println!("{}", z);
    for i in 0..3 {
        let w: i64;
        w = i * i;
        println!("{}", w);
    }
    let k: i64;
    loop {
        k = 7;
        break;
    }
    println!("{}", k);
}
