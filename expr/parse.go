package expr

import (
	"fmt"
	"math"
	"strconv"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/simdkit/elem"
)

// ParseError is a syntax error of Parse: where, and what was wrong.
type ParseError struct {
	Src string // the text given to Parse
	Col int    // 1-based column of the offending token, in characters (runes), not bytes
	Msg string // what was wrong there
}

// Error quotes the source with a caret under the column.
func (e *ParseError) Error() string {
	return fmt.Sprintf("expr: column %d: %s\n\t%s\n\t%*s", e.Col, e.Msg, e.Src, e.Col, "^")
}

// Unwrap makes errors.Is(err, ErrSyntax) hold.
func (e *ParseError) Unwrap() error { return ErrSyntax }

// MaxNesting is how deep Parse lets parentheses, function calls and minus
// signs nest: "((x))", "abs(abs(x))" and "--x" nest 2 deep. Deeper text is
// a *ParseError. Parse recurses once per level, and the limit bounds the
// stack it takes on any input (1000 levels of parentheses, calls or minus
// signs run in a 1 MiB stack; 10000 needed 32 MiB) and the time it spends
// on text it refuses. It is regexp/syntax's limit, for the same reason
// (encoding/json allows 10000, go/parser 100000). Hand-written expressions
// nest a few levels; the text String writes for a chain of n binary ops
// nests n deep, and reads back up to MaxNesting.
const MaxNesting = 1000

// Parse reads an expression such as "(x - m) / s" or "max(x*w + b, 0)".
// Names in shapes are array inputs of that shape; every other name is a
// scalar input. The grammar, loosest binding first:
//
//	where(cond, a, b)  cond is a comparison: a == b, !=, <, <=, >, >=
//	a + b, a - b
//	a * b, a / b
//	-a
//	numbers, names, (a), and the functions
//	min(a, b) max(a, b) add sub mul div, neg(a) abs sqrt floor ceil trunc
//	roundeven round, fma(a, b, c), clamp(a, lo, hi), where(cond, a, b)
//
// Numbers are decimal (1, 2.5, 1e-3) or hexadecimal with a binary exponent
// (0x1p-3), rounded to T as strconv.ParseFloat does, and inf and nan; nan
// is the quiet NaN without payload (float32 bits 0x7fc00000, float64
// 0x7ff8000000000000), nan(P) the NaN whose significand (the bits below
// the exponent, the quiet bit included) is P, as in nan(0x400001), and a
// minus sign flips the sign bit of what follows: -0, -nan. inf and nan are
// these constants, never inputs: shapes must not name an input of either
// name that the text uses. Names are letters, digits and _, not starting
// with a digit, as Go's identifiers.
//
// Each operator and function is the elem op of that name, applied as
// written: a*b + c is a multiplication and an addition (two roundings),
// fma(a, b, c) one rounding. Parentheses, calls and minus signs nest at
// most MaxNesting deep. Errors are *ParseError values, which wrap ErrSyntax
// and give the column.
func Parse[T elem.Float](src string, shapes map[string][]int) (Node[T], error) {
	p := parser[T]{src: src, shapes: shapes}
	p.next()
	n, err := p.expr()
	if err == nil && p.tok != tokEOF {
		err = p.errorf("unexpected %s after the expression", p.what())
	}
	if err != nil {
		return Node[T]{}, err
	}
	return n, nil
}

type token uint8

const (
	tokEOF token = iota
	tokNum
	tokName
	tokOp // + - * / ( ) , and the comparisons
	tokBad
)

// parser is a recursive-descent parser over a one-token lookahead.
type parser[T elem.Float] struct {
	src    string
	shapes map[string][]int
	pos    int // the byte after the current token
	// skew is how many more bytes than runes precede pos, so that columns
	// count runes.
	skew  int
	tok   token
	text  string // the current token
	col   int    // its 1-based column, in runes
	depth int    // parentheses, calls and minus signs open around the current token
}

// next reads the next token.
func (p *parser[T]) next() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t' || p.src[p.pos] == '\n') {
		p.pos++
	}
	start := p.pos
	p.col = start - p.skew + 1
	if p.pos == len(p.src) {
		p.tok, p.text = tokEOF, ""
		return
	}
	c := p.src[p.pos]
	switch {
	case c == '0' && p.pos+1 < len(p.src) && (p.src[p.pos+1] == 'x' || p.src[p.pos+1] == 'X'):
		p.tok = tokNum
		p.pos += 2
		p.skip(func(c byte) bool { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' || c == '.' })
		p.exponent('p', 'P')
	case isDigit(c) || c == '.' && p.pos+1 < len(p.src) && isDigit(p.src[p.pos+1]):
		p.tok = tokNum
		p.skip(func(c byte) bool { return isDigit(c) || c == '.' })
		p.exponent('e', 'E')
	case c == '<' || c == '>' || c == '=' || c == '!':
		p.tok = tokOp
		p.pos++
		if p.pos < len(p.src) && p.src[p.pos] == '=' {
			p.pos++
		}
		if s := p.src[start:p.pos]; s == "=" || s == "!" {
			p.tok = tokBad
		}
	case c == '+' || c == '-' || c == '*' || c == '/' || c == '(' || c == ')' || c == ',':
		p.tok = tokOp
		p.pos++
	case !isLetter(p.peek()):
		p.tok = tokBad
		p.advance()
	default:
		p.tok = tokName
		for r := p.peek(); isLetter(r) || unicode.IsDigit(r); r = p.peek() {
			p.advance()
		}
	}
	p.text = p.src[start:p.pos]
}

// skip moves past the bytes that are in.
func (p *parser[T]) skip(in func(c byte) bool) {
	for p.pos < len(p.src) && in(p.src[p.pos]) {
		p.pos++
	}
}

// exponent moves past an exponent that starts with mark or alt, its sign
// and its digits.
func (p *parser[T]) exponent(mark, alt byte) {
	if p.pos < len(p.src) && (p.src[p.pos] == mark || p.src[p.pos] == alt) {
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		p.skip(isDigit)
	}
}

// peek returns the rune at pos (utf8.RuneError at the end).
func (p *parser[T]) peek() rune {
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return r
}

// advance moves past the rune at pos.
func (p *parser[T]) advance() {
	_, size := utf8.DecodeRuneInString(p.src[p.pos:])
	p.pos += size
	p.skew += size - 1
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(r rune) bool { return r == '_' || unicode.IsLetter(r) }

// what describes the current token for an error.
func (p *parser[T]) what() string {
	if p.tok == tokEOF {
		return "end of expression"
	}
	return strconv.Quote(p.text)
}

func (p *parser[T]) errorf(format string, args ...any) error {
	return &ParseError{Src: p.src, Col: p.col, Msg: fmt.Sprintf(format, args...)}
}

// is reports whether the current token is the operator op.
func (p *parser[T]) is(op string) bool { return p.tok == tokOp && p.text == op }

// expect consumes op or fails.
func (p *parser[T]) expect(op string) error {
	if !p.is(op) {
		return p.errorf("expected %q, found %s", op, p.what())
	}
	p.next()
	return nil
}

// expr is a sum; a comparison here is an error, as only where takes one.
func (p *parser[T]) expr() (Node[T], error) {
	n, err := p.sum()
	if err == nil && p.tok == tokOp {
		if _, ok := compareOps[p.text]; ok {
			return n, p.errorf("a comparison (%s) is only allowed as the first argument of where", p.text)
		}
	}
	return n, err
}

var compareOps = map[string]elem.CompareOp{"==": elem.OpEq, "!=": elem.OpNe, "<": elem.OpLt, "<=": elem.OpLe, ">": elem.OpGt, ">=": elem.OpGe}

// cond is where's first argument: sum op sum.
func (p *parser[T]) cond() (Cond[T], error) {
	a, err := p.sum()
	if err != nil {
		return Cond[T]{}, err
	}
	op, ok := compareOps[p.text]
	if p.tok != tokOp || !ok {
		return Cond[T]{}, p.errorf("where needs a comparison (==, !=, <, <=, >, >=) as its first argument, found %s", p.what())
	}
	p.next()
	b, err := p.sum()
	if err != nil {
		return Cond[T]{}, err
	}
	return Compare(op, a, b), nil
}

// sum is terms joined by + and -, left to right.
func (p *parser[T]) sum() (Node[T], error) { return p.chain(p.product, sumOps) }

// product is factors joined by * and /, left to right.
func (p *parser[T]) product() (Node[T], error) { return p.chain(p.unary, productOps) }

var (
	sumOps     = map[string]elem.Op{"+": elem.OpAdd, "-": elem.OpSub}
	productOps = map[string]elem.Op{"*": elem.OpMul, "/": elem.OpDiv}
)

// chain parses operand (op operand)* for the given operators.
func (p *parser[T]) chain(operand func() (Node[T], error), ops map[string]elem.Op) (Node[T], error) {
	n, err := operand()
	for err == nil && p.tok == tokOp {
		op, ok := ops[p.text]
		if !ok {
			break
		}
		p.next()
		var m Node[T]
		if m, err = operand(); err == nil {
			n = binary(op, n, m)
		}
	}
	return n, err
}

// nest opens one more level of nesting at the current token, or fails past
// MaxNesting; the caller closes it (depth--) when the level is parsed.
func (p *parser[T]) nest() error {
	if p.depth == MaxNesting {
		return p.errorf("nested more than %d deep (parentheses, function calls and minus signs)", MaxNesting)
	}
	p.depth++
	return nil
}

// unary is a minus sign (folded into a number that follows it: -0 is
// negative zero) or a primary.
func (p *parser[T]) unary() (Node[T], error) {
	if !p.is("-") {
		return p.primary()
	}
	if err := p.nest(); err != nil {
		return Node[T]{}, err
	}
	p.next()
	n, err := p.unary()
	p.depth--
	if err != nil {
		return n, err
	}
	if n.n.kind == kindConst {
		return Const(negate(n.n.val)), nil
	}
	return Neg(n), nil
}

// functions are the named functions and their argument counts.
var functions = func() map[string]int {
	f := map[string]int{"where": 3}
	for _, op := range elem.Ops() {
		f[op.String()] = 2
	}
	for _, op := range elem.UnaryOps() {
		f[op.String()] = 1
	}
	for _, op := range elem.TernaryOps() {
		f[op.String()] = 3
	}
	return f
}()

// primary is a number, a name, a call or a parenthesised expression.
func (p *parser[T]) primary() (Node[T], error) {
	switch {
	case p.tok == tokNum:
		bits := 64
		if unsafe.Sizeof(T(0)) == 4 {
			bits = 32
		}
		v, err := strconv.ParseFloat(p.text, bits)
		if err != nil {
			return Node[T]{}, p.errorf("bad number %s", p.what())
		}
		p.next()
		return Const(T(v)), nil
	case p.is("("):
		if err := p.nest(); err != nil {
			return Node[T]{}, err
		}
		p.next()
		n, err := p.expr()
		p.depth--
		if err != nil {
			return n, err
		}
		return n, p.expect(")")
	case p.tok != tokName:
		return Node[T]{}, p.errorf("expected an operand, found %s", p.what())
	}
	name, col := p.text, p.col
	if name == "inf" || name == "nan" {
		if _, ok := p.shapes[name]; ok {
			return Node[T]{}, p.errorf("%s is a constant, and shapes also names an input %q: rename the input", name, name)
		}
		p.next()
		if name == "inf" {
			return Const(T(math.Inf(1))), nil
		}
		return p.nan()
	}
	p.next()
	arity, isFunc := functions[name]
	if !p.is("(") {
		if isFunc {
			return Node[T]{}, p.errorf("%s is a function: write %s(...)", name, name)
		}
		if shape, ok := p.shapes[name]; ok {
			return Input[T](name, shape...), nil
		}
		return Scalar[T](name), nil
	}
	if !isFunc {
		return Node[T]{}, &ParseError{Src: p.src, Col: col, Msg: fmt.Sprintf("unknown function %q", name)}
	}
	if err := p.nest(); err != nil {
		return Node[T]{}, err
	}
	p.next()
	n, err := p.call(name, col, arity)
	p.depth--
	return n, err
}

// nan is the NaN after the name nan: the quiet NaN, or with nan(P) the NaN
// of significand P.
func (p *parser[T]) nan() (Node[T], error) {
	l := layoutOf[T]()
	if !p.is("(") {
		return Const(fromBits[T](l.exp | l.quiet())), nil
	}
	p.next()
	v, err := strconv.ParseUint(p.text, 0, 64)
	if p.tok != tokNum || err != nil || v == 0 || v > l.frac {
		return Node[T]{}, p.errorf("nan(P) takes the significand of a NaN of %T, 0x1 to %#x, found %s", T(0), l.frac, p.what())
	}
	p.next()
	return Const(fromBits[T](l.exp | v)), p.expect(")")
}

// call parses the arguments of function name (at col) and builds its node.
func (p *parser[T]) call(name string, col, arity int) (Node[T], error) {
	var args [3]Node[T]
	var c Cond[T]
	for i := range arity {
		if i > 0 {
			if err := p.expect(","); err != nil {
				return Node[T]{}, err
			}
		}
		var err error
		if name == "where" && i == 0 {
			c, err = p.cond()
		} else {
			args[i], err = p.expr()
		}
		if err != nil {
			return Node[T]{}, err
		}
	}
	if p.is(",") {
		return Node[T]{}, &ParseError{Src: p.src, Col: col, Msg: fmt.Sprintf("%s takes %d arguments", name, arity)}
	}
	if err := p.expect(")"); err != nil {
		return Node[T]{}, err
	}
	if name == "where" {
		return Where(c, args[1], args[2]), nil
	}
	for _, op := range elem.Ops() {
		if op.String() == name {
			return binary(op, args[0], args[1]), nil
		}
	}
	for _, op := range elem.UnaryOps() {
		if op.String() == name {
			return Unary(op, args[0]), nil
		}
	}
	for _, op := range elem.TernaryOps() {
		if op.String() == name {
			return ternary(op, args[0], args[1], args[2]), nil
		}
	}
	panic("expr: function table and call disagree on " + name)
}
