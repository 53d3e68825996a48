package broadcast

// Layout is a broadcast resolved for a planner: the output shape and, for each
// input, where its elements sit relative to the output.
//
// Input i, stored contiguously in row-major order, holds the element for
// output index (i0, i1, ...) at offset sum over d of idx[d]*Strides[i][d].
// A stride is 0 on every output dimension along which the input is broadcast
// (and on every dimension where the input has size 1). The output itself is
// contiguous with strides OutStrides.
type Layout struct {
	// Out is the output shape.
	Out Shape
	// OutStrides are the contiguous row-major strides of Out.
	OutStrides []int
	// Strides[i][d] is the element stride of input i along dimension d of Out.
	Strides [][]int
}

// newLayout starts a Layout over out for n inputs, whose strides place
// then fills in.
func newLayout(out Shape, n int) Layout {
	l := Layout{Out: out, OutStrides: contiguous(out), Strides: make([][]int, n)}
	for i := range l.Strides {
		l.Strides[i] = make([]int, len(out))
	}
	return l
}

// place sets the strides of input i, a valid shape s that broadcasts to the
// output once placed pad dimensions from the right as the rule says.
func (l Layout) place(i int, s Shape, pad int) Layout {
	stridesInto(l.Strides[i], s, pad, true)
	return l
}

// placed is an operand's shape as a rule places it against the output:
// right-aligned, then moved pad dimensions to the left (PDPD puts b at an
// axis, which is b followed by pad sizes of 1).
type placed struct {
	shape Shape
	pad   int
}

// stridesInto is the one stride computation of the package, behind
// [Shape.Strides], [Strides], every Layout and every Plan: it writes into st,
// one entry per output dimension, the element strides of contiguous
// row-major data of shape s placed pad dimensions from the right. Dimensions
// that s does not cover get stride 0, and so, when broadcast is set, do the
// dimensions where s has size 1 (it repeats along them); otherwise those get
// their contiguous stride.
func stridesInto(st []int, s Shape, pad int, broadcast bool) {
	lead := len(st) - len(s) - pad
	clear(st[:lead])
	clear(st[len(st)-pad:])
	p := 1
	for k := len(s) - 1; k >= 0; k-- {
		st[lead+k] = p
		if broadcast && s[k] == 1 {
			st[lead+k] = 0
		}
		p *= s[k]
	}
}

// Strides returns the element strides of contiguous row-major data of shape
// operand over the dimensions of out, with the NUMPY alignment: operand is
// right-aligned against out, its missing leading dimensions and its
// dimensions of size 1 get stride 0, and the others their contiguous stride.
//
// operand must broadcast to out, that is the NUMPY result of the two must be
// out: its rank must not exceed out's (else [ErrRank] and [ErrIncompatible])
// and each of its sizes must equal the size of out there or be 1 (else
// [ErrIncompatible]). Invalid shapes give the errors of [Shape.Validate].
func Strides(operand, out Shape) ([]int, error) {
	if err := operand.validate("operand"); err != nil {
		return nil, err
	}
	if err := out.validate("output"); err != nil {
		return nil, err
	}
	if len(operand) > len(out) {
		return nil, newError(errs(ErrIncompatible, ErrRank),
			"operand %v cannot be broadcast to output %v: rank %d of operand exceeds rank %d of output",
			operand.Clone(), out.Clone(), len(operand), len(out))
	}
	res := make(Shape, len(out))
	d, _, _ := numpyInto(res, []Shape{operand, out})
	for e := len(out) - 1; e > d; e-- { // the innermost dimension where the result is not out
		if res[e] != out[e] {
			d = e
			break
		}
	}
	if d >= 0 {
		return nil, newError(errs(ErrIncompatible),
			"operand %v cannot be broadcast to output %v: size %d of operand must be 1 or match size %d of output at dimension %d",
			operand.Clone(), out.Clone(), operand[d-(len(out)-len(operand))], out[d], d)
	}
	st := make([]int, len(out))
	stridesInto(st, operand, 0, true)
	return st, nil
}

// NumpyLayout applies [Numpy] to shapes and returns the result with each
// input's strides over it, in the order given.
func NumpyLayout(shapes ...Shape) (Layout, error) {
	out, err := Numpy(shapes...)
	if err != nil {
		return Layout{}, err
	}
	l := newLayout(out, len(shapes))
	for i, s := range shapes {
		l.place(i, s, 0)
	}
	return l, nil
}

// NoneLayout applies [None] and returns the result with the strides of a and
// b over it, which are both the result's own.
func NoneLayout(a, b Shape) (Layout, error) {
	out, err := None(a, b)
	if err != nil {
		return Layout{}, err
	}
	return newLayout(out, 2).place(0, a, 0).place(1, b, 0), nil
}

// PDPDLayout applies [PDPD] and returns the result, a's shape, with the
// strides of a and of b over it: b's are those of [AlignPDPD](a, b, axis).
func PDPDLayout(a, b Shape, axis int) (Layout, error) {
	start, tb, err := pdpdWindow(a, b, axis)
	if err != nil {
		return Layout{}, err
	}
	return newLayout(a.Clone(), 2).place(0, a, 0).place(1, tb, len(a)-start-len(tb)), nil
}

// BidirectionalLayout applies [Bidirectional] and returns the result with
// the strides of in over it (Strides has one entry). Materialising the
// result is a copy through these strides.
func BidirectionalLayout(in, target Shape) (Layout, error) {
	out, err := Bidirectional(in, target)
	if err != nil {
		return Layout{}, err
	}
	return newLayout(out, 1).place(0, in, 0), nil
}

// InPlaceLayout applies [InPlace] and returns a Layout whose output is a
// itself: Strides[0] are a's own strides (contiguous, 0 on its dimensions of
// size 1), Strides[1] b's strides over a.
func InPlaceLayout(a, b Shape) (Layout, error) {
	out, err := InPlaceShape(a, b)
	if err != nil {
		return Layout{}, err
	}
	return newLayout(out, 2).place(0, a, 0).place(1, b, 0), nil
}
