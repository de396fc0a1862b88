struct User { id: i64 }
fn get_id<T>(x: T) -> i64 {
    x.id // <-
}
fn main() { println!("{}", get_id(User { id: 3 })) }
