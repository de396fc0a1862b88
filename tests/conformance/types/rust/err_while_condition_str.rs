fn main() {
    let s = "go";
    while s { // <-
        println!("loop");
    }
}
