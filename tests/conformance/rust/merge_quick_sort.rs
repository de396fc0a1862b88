// Merge sort and quicksort, generic over T: Ord + Clone.
fn merge_sort<T: Ord + Clone>(v: &[T]) -> Vec<T> {
    if v.len() <= 1 {
        return v.to_vec();
    }
    let mid = v.len() / 2;
    let a = merge_sort(&v[..mid]);
    let b = merge_sort(&v[mid..]);
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(v.len());
    while i < a.len() && j < b.len() {
        if a[i] <= b[j] {
            out.push(a[i].clone());
            i += 1;
        } else {
            out.push(b[j].clone());
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

fn quick_sort<T: Ord + Clone>(v: Vec<T>) -> Vec<T> {
    if v.len() <= 1 {
        return v;
    }
    let pivot = v[0].clone();
    let less: Vec<T> = v[1..].iter().filter(|x| **x < pivot).cloned().collect();
    let more: Vec<T> = v[1..].iter().filter(|x| **x >= pivot).cloned().collect();
    let mut out = quick_sort(less);
    out.push(pivot);
    out.extend(quick_sort(more));
    out
}

fn main() {
    let v = vec![38, 27, 43, 3, 9, 82, 10, 3];
    println!("{:?}", merge_sort(&v));
    println!("{:?}", quick_sort(v.clone()));
    let names = vec!["mary".to_string(), "al".to_string(), "zoe".to_string(), "bob".to_string()];
    println!("{:?}", merge_sort(&names));
    println!("{:?}", quick_sort(names));
}
