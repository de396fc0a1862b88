// Recursion: towers of Hanoi, all permutations of a small list, power set sizes.
fn hanoi(n: u32, from: char, to: char, via: char, moves: &mut Vec<(char, char)>) {
    if n == 0 {
        return;
    }
    hanoi(n - 1, from, via, to, moves);
    moves.push((from, to));
    hanoi(n - 1, via, to, from, moves);
}

fn permutations(items: &mut Vec<i32>, k: usize, out: &mut Vec<Vec<i32>>) {
    if k == items.len() {
        out.push(items.clone());
        return;
    }
    for i in k..items.len() {
        items.swap(k, i);
        permutations(items, k + 1, out);
        items.swap(k, i);
    }
}

fn main() {
    let mut moves = Vec::new();
    hanoi(3, 'A', 'C', 'B', &mut moves);
    println!("{} moves: {:?}", moves.len(), moves);
    let mut m10 = Vec::new();
    hanoi(10, 'A', 'C', 'B', &mut m10);
    println!("{}", m10.len());
    let mut out = Vec::new();
    permutations(&mut vec![1, 2, 3], 0, &mut out);
    println!("{:?}", out);
    out.sort();
    println!("{:?}", out.last());
}
