// std::cmp::Ordering: cmp on ints, floats, strings, chars, tuples, arrays;
// then/then_with/reverse, comparators for sort_by, max_by and min_by.
use std::cmp::Ordering;

fn describe(o: Ordering) -> &'static str {
    match o {
        Ordering::Less => "less",
        Ordering::Equal => "equal",
        Ordering::Greater => "greater",
    }
}

fn main() {
    println!("{:?} {:?} {:?}", 1.cmp(&2), "b".cmp("a"), 'x'.cmp(&'x'));
    println!("{:?} {:?}", (1, "z").cmp(&(1, "a")), vec![1, 2, 3].cmp(&vec![1, 3]));
    println!("{:?} {:?} {:?}", 2.5f64.partial_cmp(&1.0), f64::NAN.partial_cmp(&1.0), (-0.0f64).total_cmp(&0.0));
    let o = 3.cmp(&3).then(Ordering::Less);
    println!("{} {} {:?}", describe(o), o.is_lt(), o.reverse());
    println!("{} {} {}", Ordering::Greater.is_ge(), Ordering::Equal.is_ne(), Ordering::Less.is_le());
    let mut v = vec![("pear", 3), ("fig", 3), ("apple", 5), ("kiwi", 1)];
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    println!("{:?}", v);
    let xs: [f64; 4] = [2.5, -1.0, 9.75, 3.0];
    let hi = xs.iter().cloned().max_by(|a, b| a.partial_cmp(b).unwrap());
    let lo = xs.iter().cloned().min_by(|a, b| a.total_cmp(b));
    println!("{:?} {:?}", hi, lo);
    println!("{} {}", std::cmp::max(4, 9), std::cmp::min("x", "b"));
    let mut names = vec!["Bob", "alice", "Carol"];
    names.sort_by(|a, b| a.to_lowercase().cmp(&b.to_lowercase()));
    println!("{:?}", names);
    println!("{:?}", 7u32.cmp(&7).then_with(|| 1.cmp(&0)));
}
