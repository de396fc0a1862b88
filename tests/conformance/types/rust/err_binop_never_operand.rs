fn main() {
    let g = 1;
    let x = g + panic!("x");
    println!("{}", x);
}
