enum Cmd { Move(i64, i64), Say(String), Quit }
fn dx(c: Cmd) -> i64 {
    let Cmd::Move(x, _) = c else { return 0 };
    x
}
fn parse_len(s: &str) -> i64 {
    let Ok(n) = s.parse::<i64>() else { return -1 };
    let Some(d) = n.checked_mul(2) else { return -2 };
    d
}
fn main() {
    println!("{}", dx(Cmd::Move(4, 5)));
    println!("{}", dx(Cmd::Say("hi".to_string())));
    println!("{}", dx(Cmd::Quit));
    println!("{}", parse_len("21"));
    println!("{}", parse_len("x"));
}
