//! Integer formulas in data files: `D / 3 + 1`, `r > 150 - 10 * D`, `r != 0 && D == 1`.
//!
//! Variables: `D` (the depth), `difficulty`, and `r` (the value just rolled, inside a
//! roll's `when`). Operators: `+ - * / %` (division rounds down), comparisons
//! `== != < <= > >=`, `&& || !`, parentheses, `min(a, b)` and `max(a, b)`.

use std::fmt;

/// The longest formula text a data file may hold, in bytes: far above any real rule
/// (Omega's longest is under 30), and it bounds the depth of a chain such as `1+1+...`.
pub const MAX_FORMULA_LEN: usize = 1_000;

/// How deeply parentheses, `min`/`max` and the unary `-` and `!` may nest. The parser
/// descends once per level, so this bounds its stack whatever the input.
pub const MAX_FORMULA_NESTING: usize = 32;

/// The variables a formula may read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Vars {
    /// Current depth `D`.
    pub depth: i64,
    /// Current difficulty.
    pub difficulty: i64,
    /// The value just rolled (`r`), inside a roll's condition.
    pub roll: Option<i64>,
}

/// What a formula yields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number.
    Number,
    /// A truth value (a condition).
    Truth,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Number => "a number",
            Kind::Truth => "a condition",
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Var {
    Depth,
    Difficulty,
    Roll,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Min,
    Max,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Expr {
    Const(i64),
    Var(Var),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Binary(Op, Box<Expr>, Box<Expr>),
}

/// A parsed, type-checked formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Formula {
    text: String,
    expr: Expr,
    kind: Kind,
    uses_roll: bool,
}

/// Why a formula could not be parsed or evaluated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormulaError {
    /// The text is not a formula.
    #[error("cannot read formula `{text}`: {problem}")]
    Parse {
        /// The formula text.
        text: String,
        /// What is wrong.
        problem: String,
    },
    /// Evaluation failed (division by zero, overflow).
    #[error("formula `{text}` {problem}")]
    Eval {
        /// The formula text.
        text: String,
        /// What went wrong.
        problem: String,
    },
}

impl Formula {
    /// Parses `text`, which must yield `kind`. `r` is allowed only when `roll_allowed`.
    pub fn parse(text: &str, kind: Kind, roll_allowed: bool) -> Result<Self, FormulaError> {
        let fail = |problem: String| FormulaError::Parse {
            text: excerpt(text),
            problem,
        };
        if text.len() > MAX_FORMULA_LEN {
            return Err(fail(format!(
                "it is {} bytes long; formulas have at most {MAX_FORMULA_LEN}",
                text.len()
            )));
        }
        let tokens = tokenize(text).map_err(fail)?;
        let mut parser = Parser {
            tokens,
            pos: 0,
            nesting: 0,
        };
        let expr = parser.or().map_err(fail)?;
        if parser.pos != parser.tokens.len() {
            return Err(fail(format!(
                "unexpected `{}`",
                parser.tokens[parser.pos].text()
            )));
        }
        let found = type_of(&expr).map_err(fail)?;
        if found != kind {
            return Err(fail(format!("expected {kind}, found {found}")));
        }
        let uses_roll = mentions_roll(&expr);
        if uses_roll && !roll_allowed {
            return Err(fail(
                "`r` (the roll) is only known inside a roll's `when`".into(),
            ));
        }
        Ok(Self {
            text: text.to_owned(),
            expr,
            kind,
            uses_roll,
        })
    }

    /// The text as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether the formula reads `r`.
    pub fn uses_roll(&self) -> bool {
        self.uses_roll
    }

    /// Evaluates a number formula.
    pub fn number(&self, vars: &Vars) -> Result<i64, FormulaError> {
        debug_assert_eq!(self.kind, Kind::Number);
        self.eval(vars)
    }

    /// Evaluates a condition.
    pub fn truth(&self, vars: &Vars) -> Result<bool, FormulaError> {
        debug_assert_eq!(self.kind, Kind::Truth);
        Ok(self.eval(vars)? != 0)
    }

    fn eval(&self, vars: &Vars) -> Result<i64, FormulaError> {
        eval(&self.expr, vars).map_err(|problem| FormulaError::Eval {
            text: self.text.clone(),
            problem: problem.into(),
        })
    }
}

/// The start of a formula's text for an error message: a whole formula up to 60 bytes,
/// else its first 60 bytes and an ellipsis, so a huge input gives a short line.
fn excerpt(text: &str) -> String {
    denizen_core::data::excerpt(text, 60)
}

fn eval(expr: &Expr, vars: &Vars) -> Result<i64, &'static str> {
    Ok(match expr {
        Expr::Const(v) => *v,
        Expr::Var(Var::Depth) => vars.depth,
        Expr::Var(Var::Difficulty) => vars.difficulty,
        Expr::Var(Var::Roll) => vars.roll.ok_or("reads `r` outside a roll")?,
        Expr::Neg(e) => eval(e, vars)?.checked_neg().ok_or("overflows")?,
        Expr::Not(e) => i64::from(eval(e, vars)? == 0),
        Expr::Binary(op, a, b) => {
            let a = eval(a, vars)?;
            // `&&` and `||` still evaluate both sides: formulas have no side effects.
            let b = eval(b, vars)?;
            match op {
                Op::Add => a.checked_add(b).ok_or("overflows")?,
                Op::Sub => a.checked_sub(b).ok_or("overflows")?,
                Op::Mul => a.checked_mul(b).ok_or("overflows")?,
                Op::Div if b == 0 => return Err("divides by zero"),
                Op::Rem if b == 0 => return Err("divides by zero"),
                Op::Div => a.checked_div_euclid(b).ok_or("overflows")?,
                Op::Rem => a.checked_rem_euclid(b).ok_or("overflows")?,
                Op::Eq => i64::from(a == b),
                Op::Ne => i64::from(a != b),
                Op::Lt => i64::from(a < b),
                Op::Le => i64::from(a <= b),
                Op::Gt => i64::from(a > b),
                Op::Ge => i64::from(a >= b),
                Op::And => i64::from(a != 0 && b != 0),
                Op::Or => i64::from(a != 0 || b != 0),
                Op::Min => a.min(b),
                Op::Max => a.max(b),
            }
        }
    })
}

fn type_of(expr: &Expr) -> Result<Kind, String> {
    let want = |e: &Expr, kind: Kind, what: &str| -> Result<(), String> {
        let found = type_of(e)?;
        if found == kind {
            Ok(())
        } else {
            Err(format!("{what} needs {kind}, found {found}"))
        }
    };
    Ok(match expr {
        Expr::Const(_) | Expr::Var(_) => Kind::Number,
        Expr::Neg(e) => {
            want(e, Kind::Number, "`-`")?;
            Kind::Number
        }
        Expr::Not(e) => {
            want(e, Kind::Truth, "`!`")?;
            Kind::Truth
        }
        Expr::Binary(op, a, b) => {
            let (operand, result) = match op {
                Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Rem | Op::Min | Op::Max => {
                    (Kind::Number, Kind::Number)
                }
                Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge => (Kind::Number, Kind::Truth),
                Op::And | Op::Or => (Kind::Truth, Kind::Truth),
            };
            let name = format!("{op:?}").to_lowercase();
            want(a, operand, &name)?;
            want(b, operand, &name)?;
            result
        }
    })
}

fn mentions_roll(expr: &Expr) -> bool {
    match expr {
        Expr::Var(v) => *v == Var::Roll,
        Expr::Const(_) => false,
        Expr::Neg(e) | Expr::Not(e) => mentions_roll(e),
        Expr::Binary(_, a, b) => mentions_roll(a) || mentions_roll(b),
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Number(i64),
    Name(String),
    Symbol(&'static str),
}

impl Token {
    fn text(&self) -> String {
        match self {
            Token::Number(v) => v.to_string(),
            Token::Name(n) => n.clone(),
            Token::Symbol(s) => (*s).to_owned(),
        }
    }
}

const SYMBOLS: [&str; 19] = [
    "==", "!=", "<=", ">=", "&&", "||", "<", ">", "+", "-", "*", "/", "%", "(", ")", ",", "!", "=",
    "&",
];

fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c.is_whitespace() {
            rest = &rest[c.len_utf8()..];
        } else if c.is_ascii_digit() {
            let end = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            let value = rest[..end]
                .parse()
                .map_err(|_| format!("number `{}` is too large", &rest[..end]))?;
            tokens.push(Token::Number(value));
            rest = &rest[end..];
        } else if c.is_ascii_alphabetic() || c == '_' {
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            tokens.push(Token::Name(rest[..end].to_owned()));
            rest = &rest[end..];
        } else if let Some(symbol) = SYMBOLS.iter().find(|s| rest.starts_with(**s)) {
            if *symbol == "=" || *symbol == "&" {
                return Err(format!("`{symbol}` is not an operator (use `==` or `&&`)"));
            }
            tokens.push(Token::Symbol(symbol));
            rest = &rest[symbol.len()..];
        } else {
            return Err(format!("unexpected character `{c}`"));
        }
    }
    Ok(tokens)
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    /// How many parentheses, functions and unary operators enclose the current position.
    nesting: usize,
}

impl Parser {
    /// Parses one nested part (inside parentheses, a function or a unary operator),
    /// refusing to nest deeper than [`MAX_FORMULA_NESTING`].
    fn nested(&mut self, part: fn(&mut Self) -> Result<Expr, String>) -> Result<Expr, String> {
        if self.nesting == MAX_FORMULA_NESTING {
            return Err(format!(
                "it nests deeper than {MAX_FORMULA_NESTING} levels of parentheses, functions \
                 and signs"
            ));
        }
        self.nesting += 1;
        let expr = part(self);
        self.nesting -= 1;
        expr
    }

    fn peek_symbol(&self, symbols: &[&'static str]) -> Option<&'static str> {
        match self.tokens.get(self.pos) {
            Some(Token::Symbol(s)) if symbols.contains(s) => Some(s),
            _ => None,
        }
    }

    fn expect(&mut self, symbol: &'static str) -> Result<(), String> {
        if self.peek_symbol(&[symbol]).is_some() {
            self.pos += 1;
            Ok(())
        } else {
            Err(match self.tokens.get(self.pos) {
                Some(t) => format!("expected `{symbol}`, found `{}`", t.text()),
                None => format!("expected `{symbol}` at the end"),
            })
        }
    }

    fn binary_level(
        &mut self,
        symbols: &[&'static str],
        next: fn(&mut Self) -> Result<Expr, String>,
        chain: bool,
    ) -> Result<Expr, String> {
        let mut left = next(self)?;
        while let Some(symbol) = self.peek_symbol(symbols) {
            self.pos += 1;
            let right = next(self)?;
            left = Expr::Binary(op_of(symbol), Box::new(left), Box::new(right));
            if !chain {
                break;
            }
        }
        Ok(left)
    }

    fn or(&mut self) -> Result<Expr, String> {
        self.binary_level(&["||"], Self::and, true)
    }

    fn and(&mut self) -> Result<Expr, String> {
        self.binary_level(&["&&"], Self::comparison, true)
    }

    fn comparison(&mut self) -> Result<Expr, String> {
        self.binary_level(&["==", "!=", "<=", ">=", "<", ">"], Self::sum, false)
    }

    fn sum(&mut self) -> Result<Expr, String> {
        self.binary_level(&["+", "-"], Self::product, true)
    }

    fn product(&mut self) -> Result<Expr, String> {
        self.binary_level(&["*", "/", "%"], Self::unary, true)
    }

    fn unary(&mut self) -> Result<Expr, String> {
        if self.peek_symbol(&["-"]).is_some() {
            self.pos += 1;
            return Ok(Expr::Neg(Box::new(self.nested(Self::unary)?)));
        }
        if self.peek_symbol(&["!"]).is_some() {
            self.pos += 1;
            return Ok(Expr::Not(Box::new(self.nested(Self::unary)?)));
        }
        self.atom()
    }

    fn atom(&mut self) -> Result<Expr, String> {
        let token = self
            .tokens
            .get(self.pos)
            .cloned()
            .ok_or("the formula ends too early")?;
        self.pos += 1;
        match token {
            Token::Number(v) => Ok(Expr::Const(v)),
            Token::Symbol("(") => {
                let inner = self.nested(Self::or)?;
                self.expect(")")?;
                Ok(inner)
            }
            Token::Name(name) => match name.as_str() {
                "D" => Ok(Expr::Var(Var::Depth)),
                "difficulty" => Ok(Expr::Var(Var::Difficulty)),
                "r" => Ok(Expr::Var(Var::Roll)),
                "min" | "max" => {
                    self.expect("(")?;
                    let a = self.nested(Self::or)?;
                    self.expect(",")?;
                    let b = self.nested(Self::or)?;
                    self.expect(")")?;
                    let op = if name == "min" { Op::Min } else { Op::Max };
                    Ok(Expr::Binary(op, Box::new(a), Box::new(b)))
                }
                _ => Err(format!(
                    "unknown name `{name}` (known: D, difficulty, r, min, max)"
                )),
            },
            Token::Symbol(s) => Err(format!("unexpected `{s}`")),
        }
    }
}

fn op_of(symbol: &str) -> Op {
    match symbol {
        "+" => Op::Add,
        "-" => Op::Sub,
        "*" => Op::Mul,
        "/" => Op::Div,
        "%" => Op::Rem,
        "==" => Op::Eq,
        "!=" => Op::Ne,
        "<" => Op::Lt,
        "<=" => Op::Le,
        ">" => Op::Gt,
        ">=" => Op::Ge,
        "&&" => Op::And,
        _ => Op::Or,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(depth: i64) -> Vars {
        Vars {
            depth,
            difficulty: depth / 3 + 1,
            roll: None,
        }
    }

    #[test]
    fn formulas_evaluate_with_floor_division() {
        let f = Formula::parse("D / 3 + 1", Kind::Number, false).unwrap();
        let values: Vec<i64> = (1..=10).map(|d| f.number(&at(d)).unwrap()).collect();
        assert_eq!(values, [1, 1, 2, 2, 2, 3, 3, 3, 4, 4]);
        let f = Formula::parse("(0 - 7) / 2", Kind::Number, false).unwrap();
        assert_eq!(f.number(&at(1)).unwrap(), -4);
        let f = Formula::parse("max(min(10 * D - 51, 100), 0)", Kind::Number, false).unwrap();
        assert_eq!(f.number(&at(3)).unwrap(), 0);
        assert_eq!(f.number(&at(7)).unwrap(), 19);
    }

    #[test]
    fn conditions_read_the_roll() {
        let f = Formula::parse("r > 150 - 10 * D", Kind::Truth, true).unwrap();
        let vars = |roll| Vars {
            roll: Some(roll),
            ..at(6)
        };
        assert!(!f.truth(&vars(90)).unwrap());
        assert!(f.truth(&vars(91)).unwrap());
        let f = Formula::parse("r != 0 && D == 1 || !(difficulty < 5)", Kind::Truth, true).unwrap();
        assert!(
            f.truth(&Vars {
                roll: Some(1),
                ..at(1)
            })
            .unwrap()
        );
        assert!(
            !f.truth(&Vars {
                roll: Some(0),
                ..at(1)
            })
            .unwrap()
        );
    }

    /// Nesting and length are bounded, so no input can exhaust the parser's stack; the
    /// limits themselves still parse.
    #[test]
    fn deep_or_long_formulas_are_refused_at_their_limits() {
        let parse = |text: &str| Formula::parse(text, Kind::Number, false);
        let parens = |n: usize| format!("{}1{}", "(".repeat(n), ")".repeat(n));
        assert_eq!(
            parse(&parens(MAX_FORMULA_NESTING)).unwrap().number(&at(1)),
            Ok(1)
        );
        let err = parse(&parens(MAX_FORMULA_NESTING + 1))
            .unwrap_err()
            .to_string();
        assert!(err.contains("nests deeper than 32 levels"), "{err}");
        assert!(parse(&parens(6_000)).is_err(), "the old stack overflow");
        let signs = |n: usize| format!("{}1", "-".repeat(n));
        assert_eq!(
            parse(&signs(MAX_FORMULA_NESTING)).unwrap().number(&at(1)),
            Ok(1)
        );
        assert!(parse(&signs(MAX_FORMULA_NESTING + 1)).is_err());
        let functions = |n: usize| format!("{}1{}", "min(1, ".repeat(n), ")".repeat(n));
        assert!(parse(&functions(MAX_FORMULA_NESTING)).is_ok());
        assert!(parse(&functions(MAX_FORMULA_NESTING + 1)).is_err());

        // `1+1+...+1` of exactly the longest length adds up; one more term is refused.
        let chain = |terms: usize| vec!["1"; terms].join("+");
        let longest = chain(MAX_FORMULA_LEN.div_ceil(2));
        assert_eq!(longest.len(), MAX_FORMULA_LEN - 1);
        assert_eq!(parse(&longest).unwrap().number(&at(1)), Ok(500));
        let err = parse(&chain(41_000)).unwrap_err().to_string();
        assert!(
            err.contains("81999 bytes long; formulas have at most 1000"),
            "{err}"
        );
        assert!(err.len() < 200, "the message quotes only the start: {err}");
        assert!(excerpt("é".repeat(40).as_str()).ends_with("é..."));
    }

    #[test]
    fn bad_formulas_are_rejected_with_a_reason() {
        let err = |text, kind, roll| Formula::parse(text, kind, roll).unwrap_err().to_string();
        assert!(err("D +", Kind::Number, false).contains("ends too early"));
        assert!(err("depth + 1", Kind::Number, false).contains("unknown name `depth`"));
        assert!(err("D = 1", Kind::Truth, false).contains("use `==`"));
        assert!(err("D + 1", Kind::Truth, false).contains("expected a condition"));
        assert!(err("D < 1 + 2 < 3", Kind::Truth, false).contains("unexpected `<`"));
        assert!(err("r + 1", Kind::Number, false).contains("only known inside"));
        assert!(err("(D == 1) + 1", Kind::Number, false).contains("needs a number"));
        let f = Formula::parse("10 / (D - 1)", Kind::Number, false).unwrap();
        assert!(
            f.number(&at(1))
                .unwrap_err()
                .to_string()
                .contains("divides by zero")
        );
    }

    mod fuzz {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            /// Any text is a formula or a parse error; a formula evaluates to a number or an
            /// evaluation error at every extreme of its variables, never a panic.
            #[test]
            fn formulas_of_any_text(text in "[-+*/%<>=!&|() ,0-9Drminax]{0,80}|[()]{0,3000}|(1\\+){0,2000}1") {
                for kind in [Kind::Number, Kind::Truth] {
                    let Ok(formula) = Formula::parse(&text, kind, true) else { continue };
                    for value in [i64::MIN, -1, 0, 1, i64::MAX] {
                        let vars = Vars { depth: value, difficulty: value, roll: Some(value) };
                        match kind {
                            Kind::Number => { let _ = formula.number(&vars); }
                            Kind::Truth => { let _ = formula.truth(&vars); }
                        }
                    }
                }
            }
        }
    }
}
