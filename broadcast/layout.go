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

// newLayout builds a Layout for valid inputs that broadcast to out under the
// NUMPY alignment.
func newLayout(out Shape, inputs ...Shape) Layout {
	l := Layout{Out: out, OutStrides: contiguous(out), Strides: make([][]int, len(inputs))}
	for i, s := range inputs {
		l.Strides[i] = stridesOver(s, out)
	}
	return l
}

// Strides returns the element strides of contiguous row-major data of shape
// operand over the dimensions of out, with the NUMPY alignment: operand is
// right-aligned against out, its missing leading dimensions and its
// dimensions of size 1 get stride 0, and the others their contiguous stride.
//
// operand must broadcast to out: its rank must not exceed out's (else
// [ErrRank] and [ErrIncompatible]) and each of its sizes must equal the size
// of out there or be 1 (else [ErrIncompatible]). Invalid shapes give the
// errors of [Shape.Validate].
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
			operand, out, len(operand), len(out))
	}
	lead := len(out) - len(operand)
	for k := len(operand) - 1; k >= 0; k-- {
		if operand[k] != 1 && operand[k] != out[lead+k] {
			return nil, newError(errs(ErrIncompatible),
				"operand %v cannot be broadcast to output %v: size %d of operand must be 1 or match size %d of output at dimension %d",
				operand, out, operand[k], out[lead+k], lead+k)
		}
	}
	return stridesOver(operand, out), nil
}

// stridesOver computes [Strides] for valid shapes that broadcast.
func stridesOver(operand, out Shape) []int {
	st := make([]int, len(out))
	lead := len(out) - len(operand)
	p := 1
	for k := len(operand) - 1; k >= 0; k-- {
		if operand[k] != 1 {
			st[lead+k] = p
		}
		p *= operand[k]
	}
	return st
}

// NumpyLayout applies [Numpy] to shapes and returns the result with each
// input's strides over it, in the order given.
func NumpyLayout(shapes ...Shape) (Layout, error) {
	out, err := Numpy(shapes...)
	if err != nil {
		return Layout{}, err
	}
	return newLayout(out, shapes...), nil
}

// BidirectionalLayout applies [Bidirectional] and returns the result with
// the strides of in over it (Strides has one entry). Materialising the
// result is a copy through these strides.
func BidirectionalLayout(in, target Shape) (Layout, error) {
	out, err := Bidirectional(in, target)
	if err != nil {
		return Layout{}, err
	}
	return newLayout(out, in), nil
}

// InPlaceLayout applies [InPlace] and returns a Layout whose output is a
// itself: Strides[0] are a's own strides (contiguous, 0 on its dimensions of
// size 1), Strides[1] b's strides over a.
func InPlaceLayout(a, b Shape) (Layout, error) {
	out, err := inPlace(a, b)
	if err != nil {
		return Layout{}, err
	}
	return newLayout(out, a, b), nil
}
