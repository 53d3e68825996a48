package broadcast

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors. Every error returned by this package wraps at least one of
// them; test with [errors.Is]. An error may wrap several: for example a rank
// mismatch under [None] wraps both [ErrIncompatible] and [ErrRank].
var (
	// ErrIncompatible reports shapes that the rule in use cannot combine:
	// an aligned pair of sizes that differ where neither may broadcast, a rank
	// mismatch, a PDPD operand that does not fit at its axis, or different
	// minibatch sizes. It does not cover malformed shapes (see
	// [ErrInvalidShape]) or an in-place result that would change shape (see
	// [ErrInPlace]).
	ErrIncompatible = errors.New("broadcast: incompatible shapes")

	// ErrRank reports ranks that the rule does not accept: unequal ranks under
	// [None], a PDPD b of higher rank than a, or an operand of higher rank
	// than the output it must be broadcast to. It comes with [ErrIncompatible].
	ErrRank = errors.New("broadcast: rank mismatch")

	// ErrAxis reports a PDPD axis that is invalid: negative other than -1
	// (the default), beyond the rank of a, or too large for b to fit in a.
	// In the last case it comes with [ErrIncompatible].
	ErrAxis = errors.New("broadcast: invalid axis")

	// ErrInvalidShape reports a shape that is malformed in itself: a negative
	// size (which also wraps [ErrNegativeDim]), or, for a [BatchShape], a size
	// or minibatch size below 1.
	ErrInvalidShape = errors.New("broadcast: invalid shape")

	// ErrNegativeDim reports a negative dimension size. It comes with
	// [ErrInvalidShape].
	ErrNegativeDim = errors.New("broadcast: negative dimension size")

	// ErrOverflow reports a shape, or a broadcast result, whose element count
	// (the product of its non-zero sizes) does not fit in an int.
	ErrOverflow = errors.New("broadcast: element count overflows int")

	// ErrDataLength reports a data slice whose length is not the element
	// count of the shape that describes it.
	ErrDataLength = errors.New("broadcast: data length does not match shape")

	// ErrInPlace reports an in-place operation whose operands broadcast, but
	// whose result does not have exactly the shape of the destination operand
	// (PyTorch's a.add_(b) when a would have to grow).
	ErrInPlace = errors.New("broadcast: in-place result would change shape")

	// ErrBatch reports two minibatch sizes that are neither equal nor 1.
	// It comes with [ErrIncompatible].
	ErrBatch = errors.New("broadcast: different minibatch sizes")

	// ErrOp reports an elem.Op that is not one of the defined operations, or
	// one that is not defined on the element type (OpDiv on integers).
	ErrOp = errors.New("broadcast: invalid operation")

	// ErrPlan reports a plan that cannot run the call it was given: a nil
	// *Plan, the zero Plan (which is not a plan), a bidirectional plan given
	// to Run (it has no operation: see Copy) or a plan with an operation
	// given to Copy.
	ErrPlan = errors.New("broadcast: invalid plan")

	// ErrView reports a View that does not describe elements of its data:
	// a stride count that differs from its rank, or a dim that reaches
	// outside Data.
	ErrView = errors.New("broadcast: view outside its data")

	// ErrEmpty reports a reduction without an identity (max, min, argmax,
	// argmin) over no values: an output whose reduced axes hold nothing.
	ErrEmpty = errors.New("broadcast: reduction over no values")

	// ErrOverlap reports a destination that shares memory with an input other
	// than by being exactly that input (same start, extent and strides).
	ErrOverlap = errors.New("broadcast: destination overlaps an input")
)

// shapeError is the concrete error type: a complete message in the caller's
// terms plus the sentinels it wraps.
type shapeError struct {
	msg   string
	kinds []error
}

func (e *shapeError) Error() string   { return e.msg }
func (e *shapeError) Unwrap() []error { return e.kinds }

// newError returns an error with message "broadcast: " + the formatted text,
// wrapping the given sentinels.
func newError(kinds []error, format string, args ...any) error {
	return &shapeError{msg: "broadcast: " + fmt.Sprintf(format, args...), kinds: kinds}
}

// errs is shorthand for a list of sentinels.
func errs(kinds ...error) []error { return kinds }

// operandName returns the name of operand i of n in messages: a and b for
// two, "operand i" otherwise.
func operandName(n, i int) string {
	if n == 2 {
		return [2]string{"a", "b"}[i]
	}
	return fmt.Sprintf("operand %d", i)
}

// listShapes formats n shapes, shape(i) formatting shape i, as "(2,3) and
// (3)" or "(2,3), (3) and (4)". A function rather than the shapes, whose
// String method a generic list would call through its dictionary, which
// escape analysis cannot follow: the caller's shapes would escape.
func listShapes(n int, shape func(i int) string) string {
	var sb strings.Builder
	for i := range n {
		switch {
		case i == 0:
		case i == n-1:
			sb.WriteString(" and ")
		default:
			sb.WriteString(", ")
		}
		sb.WriteString(shape(i))
	}
	return sb.String()
}
