// A tiny stack VM: instructions as an enum, a program computing factorials
// and a countdown loop with jumps.
#[derive(Debug, Clone, Copy)]
enum Ins {
    Push(i64),
    Add,
    Mul,
    Sub,
    Dup,
    Swap,
    Jz(usize),
    Jmp(usize),
    Print,
    Halt,
}

fn run(code: &[Ins]) -> Vec<i64> {
    let mut stack: Vec<i64> = Vec::new();
    let mut out = Vec::new();
    let mut pc = 0;
    loop {
        let ins = code[pc];
        pc += 1;
        match ins {
            Ins::Push(v) => stack.push(v),
            Ins::Add => {
                let b = stack.pop().unwrap();
                let a = stack.pop().unwrap();
                stack.push(a + b);
            }
            Ins::Sub => {
                let b = stack.pop().unwrap();
                let a = stack.pop().unwrap();
                stack.push(a - b);
            }
            Ins::Mul => {
                let b = stack.pop().unwrap();
                let a = stack.pop().unwrap();
                stack.push(a * b);
            }
            Ins::Dup => {
                let a = *stack.last().unwrap();
                stack.push(a);
            }
            Ins::Swap => {
                let n = stack.len();
                stack.swap(n - 1, n - 2);
            }
            Ins::Jz(t) => {
                if stack.pop().unwrap() == 0 {
                    pc = t;
                }
            }
            Ins::Jmp(t) => pc = t,
            Ins::Print => out.push(*stack.last().unwrap()),
            Ins::Halt => break,
        }
    }
    out
}

fn main() {
    // acc n: while n != 0 { acc *= n; n -= 1 }
    let prog = vec![
        Ins::Push(1),
        Ins::Push(10),
        Ins::Dup,
        Ins::Jz(12),
        Ins::Dup,
        Ins::Print,
        Ins::Swap,
        Ins::Mul,
        Ins::Swap,
        Ins::Push(1),
        Ins::Sub,
        Ins::Jmp(2),
        Ins::Swap,
        Ins::Print,
        Ins::Halt,
    ];
    println!("{:?}", run(&prog));
    println!("{:?}", prog[0]);
}
