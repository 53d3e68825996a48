package expr

import (
	"fmt"
	"math"
	"strconv"
	"unsafe"

	"github.com/simdkit/elem"
)

// ParseError is a syntax error of Parse: where, and what was wrong.
type ParseError struct {
	Src string // the text given to Parse
	Col int    // 1-based byte column of the offending token
	Msg string // what was wrong there
}

// Error quotes the source with a caret under the column.
func (e *ParseError) Error() string {
	return fmt.Sprintf("expr: column %d: %s\n\t%s\n\t%*s", e.Col, e.Msg, e.Src, e.Col, "^")
}

// Unwrap makes errors.Is(err, ErrSyntax) hold.
func (e *ParseError) Unwrap() error { return ErrSyntax }

// Parse reads an expression such as "(x - m) / s" or "max(x*w + b, 0)".
// Names in shapes are array inputs of that shape; every other name is a
// scalar input. The grammar, loosest binding first:
//
//	where(cond, a, b)  cond is a comparison: a == b, !=, <, <=, >, >=
//	a + b, a - b
//	a * b, a / b
//	-a
//	numbers (1, 2.5, 1e-3, inf, nan), names, (a), and the functions
//	min(a, b) max(a, b) add sub mul div, neg(a) abs sqrt floor ceil trunc
//	roundeven round, fma(a, b, c), clamp(a, lo, hi), where(cond, a, b)
//
// Each operator and function is the elem op of that name, applied as
// written: a*b + c is a multiplication and an addition (two roundings),
// fma(a, b, c) one rounding. Errors are *ParseError values, which wrap
// ErrSyntax and give the column.
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
	tok    token
	text   string // the current token
	col    int    // its 1-based column
}

// next reads the next token.
func (p *parser[T]) next() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t' || p.src[p.pos] == '\n') {
		p.pos++
	}
	start := p.pos
	p.col = start + 1
	if p.pos == len(p.src) {
		p.tok, p.text = tokEOF, ""
		return
	}
	c := p.src[p.pos]
	switch {
	case isDigit(c) || c == '.' && p.pos+1 < len(p.src) && isDigit(p.src[p.pos+1]):
		p.tok = tokNum
		for p.pos < len(p.src) && (isDigit(p.src[p.pos]) || p.src[p.pos] == '.') {
			p.pos++
		}
		if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
			p.pos++
			if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
				p.pos++
			}
			for p.pos < len(p.src) && isDigit(p.src[p.pos]) {
				p.pos++
			}
		}
	case isLetter(c):
		p.tok = tokName
		for p.pos < len(p.src) && (isLetter(p.src[p.pos]) || isDigit(p.src[p.pos])) {
			p.pos++
		}
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
	default:
		p.tok = tokBad
		p.pos++
	}
	p.text = p.src[start:p.pos]
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }

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
func (p *parser[T]) sum() (Node[T], error) {
	return p.chain(p.product, map[string]elem.Op{"+": elem.OpAdd, "-": elem.OpSub})
}

// product is factors joined by * and /, left to right.
func (p *parser[T]) product() (Node[T], error) {
	return p.chain(p.unary, map[string]elem.Op{"*": elem.OpMul, "/": elem.OpDiv})
}

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

// unary is a minus sign (folded into a number that follows it: -0 is
// negative zero) or a primary.
func (p *parser[T]) unary() (Node[T], error) {
	if !p.is("-") {
		return p.primary()
	}
	p.next()
	n, err := p.unary()
	if err != nil {
		return n, err
	}
	if n.n.kind == kindConst {
		return Const(-n.n.val), nil
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
		p.next()
		n, err := p.expr()
		if err != nil {
			return n, err
		}
		return n, p.expect(")")
	case p.tok != tokName:
		return Node[T]{}, p.errorf("expected an operand, found %s", p.what())
	}
	name, col := p.text, p.col
	p.next()
	switch name {
	case "inf":
		return Const(T(math.Inf(1))), nil
	case "nan":
		var zero T
		return Const(zero / zero), nil
	}
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
	p.next()
	return p.call(name, col, arity)
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
