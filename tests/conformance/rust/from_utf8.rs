// String::from_utf8: Ok of the text, or Rust's Utf8Error message for invalid or incomplete UTF-8.
fn main() {
    println!("{:?}", String::from_utf8(vec![104, 105]));
    match String::from_utf8(vec![104, 0xff, 105]) { Ok(s) => println!("{}", s), Err(e) => println!("{}", e) }
    match String::from_utf8(vec![104, 0xe2, 0x82]) { Ok(s) => println!("{}", s), Err(e) => println!("{}", e) }
}
