enum Cmd { Move { x: i64, y: i64 }, Stop }
fn f(c: Cmd) -> i64 {
    match c { // <-
        Cmd::Move { x: 0, y } => y,
        Cmd::Stop => 0,
    }
}
fn main() { println!("{}", f(Cmd::Stop)) }
