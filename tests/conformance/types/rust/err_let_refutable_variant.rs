enum Msg { Text(String), Quit }
fn main() {
    let m = Msg::Quit;
    let Msg::Text(t) = m; // <-
    println!("{}", t);
}
