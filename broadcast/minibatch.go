package broadcast

import (
	"math"
	"strconv"
	"strings"
)

// BatchShape is a primitiv-style shape: the shape of one sample and a
// minibatch size. Data is batch-major: the Batch samples follow one another,
// each a contiguous block of Dims' element count.
//
// Trailing 1s of Dims are insignificant: {3,1} and {3} describe the same
// shape, and {}, {1} and {1,1} are all the scalar. Leading 1s are not: {1,3}
// differs from {3}. A valid BatchShape has every size of Dims at least 1, a
// Batch of at least 1 (1 means no minibatch; the zero BatchShape is invalid),
// and an element count that fits in an int.
type BatchShape struct {
	// Dims is the shape of one sample, as primitiv writes it ({rows, columns, ...}).
	Dims Shape
	// Batch is the minibatch size, at least 1.
	Batch int
}

// String formats s as "{3,2}x64", or "{}x3" for a scalar; Dims are written as
// given, trailing 1s included.
func (s BatchShape) String() string {
	var sb strings.Builder
	sb.WriteByte('{')
	for i, d := range s.Dims {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.Itoa(d))
	}
	sb.WriteString("}x")
	sb.WriteString(strconv.Itoa(s.Batch))
	return sb.String()
}

// Equal reports whether s and t have the same minibatch size and the same
// Dims once trailing 1s are ignored: {3,1}x1 equals {3}x1, {1,3}x1 does not.
func (s BatchShape) Equal(t BatchShape) bool {
	return s.Batch == t.Batch && sameDims(s.Dims, t.Dims)
}

// IsScalar reports whether every size of Dims is 1 (including no sizes at
// all): a scalar per sample, which broadcasts against any Dims.
func (s BatchShape) IsScalar() bool { return len(trimTrailingOnes(s.Dims)) == 0 }

// Validate returns nil if s is valid, otherwise an error wrapping
// [ErrInvalidShape] (a size of Dims below 1, which for a negative size also
// wraps [ErrNegativeDim], or a Batch below 1) or [ErrOverflow] (an element
// count, Batch included, that overflows int).
func (s BatchShape) Validate() error { return s.validate("") }

// Volume returns the element count of one sample, the product of the sizes
// of Dims (1 for a scalar). It returns the error of [BatchShape.Validate] if
// s is invalid.
func (s BatchShape) Volume() (int, error) {
	if err := s.validate(""); err != nil {
		return 0, err
	}
	v, _ := count(s.Dims)
	return v, nil
}

// Size returns the element count of the whole minibatch, Volume times Batch.
// It returns the error of [BatchShape.Validate] if s is invalid.
func (s BatchShape) Size() (int, error) {
	v, err := s.Volume()
	if err != nil {
		return 0, err
	}
	return v * s.Batch, nil
}

// CheckLen returns nil if n, the length of a data slice, is the element count
// of s, and otherwise an error wrapping [ErrDataLength] (or the error of
// [BatchShape.Validate] if s is invalid).
func (s BatchShape) CheckLen(n int) error {
	want, err := s.Size()
	if err != nil {
		return err
	}
	if n != want {
		return newError(errs(ErrDataLength), "data has %d elements but minibatch shape %v needs %d", n, clone(s), want)
	}
	return nil
}

// Flat returns the batch-major data of s viewed as a rank-2 [Shape]:
// (Batch, Volume). It returns the error of [BatchShape.Validate] if s is
// invalid.
func (s BatchShape) Flat() (Shape, error) {
	v, err := s.Volume()
	if err != nil {
		return nil, err
	}
	return Shape{s.Batch, v}, nil
}

func (s BatchShape) validate(name string) error {
	for i, d := range s.Dims {
		if d < 1 {
			kinds := errs(ErrInvalidShape)
			what := "is not allowed in a minibatch shape"
			if d < 0 {
				kinds = append(kinds, ErrNegativeDim)
				what = "is negative"
			}
			return newError(kinds, "minibatch shape %v%s is invalid: size %d at dimension %d %s", clone(s), of(name), d, i, what)
		}
	}
	if s.Batch < 1 {
		return newError(errs(ErrInvalidShape),
			"minibatch shape %v%s is invalid: minibatch size %d must be at least 1", clone(s), of(name), s.Batch)
	}
	if v, ok := count(s.Dims); !ok || v > math.MaxInt/s.Batch {
		return newError(errs(ErrOverflow),
			"minibatch shape %v%s is too large: its element count overflows int", clone(s), of(name))
	}
	return nil
}

// sameDims reports whether a and b are equal once trailing 1s are ignored.
func sameDims(a, b Shape) bool {
	return trimTrailingOnes(a).Equal(trimTrailingOnes(b))
}

// Minibatch applies primitiv's minibatch broadcasting to any number of
// shapes, left to right, keeping a running result:
//
//   - Dims: a scalar (all sizes 1) broadcasts against any Dims; otherwise
//     Dims must be equal to the running Dims, ignoring trailing 1s
//     ([ErrIncompatible] if not). The running Dims are those of the first
//     operand that is not a scalar, with trailing 1s trimmed ({} if all are
//     scalars).
//   - Batch: the running Batch becomes the first Batch above 1; every other
//     Batch must equal it or be 1. Otherwise the error wraps [ErrBatch] and
//     [ErrIncompatible] and says, as primitiv does, "different minibatch
//     sizes: 3 and 2", running size first.
//
// Operands are named "a" and "b" for two shapes, "operand i" otherwise.
// Invalid shapes give the errors of [BatchShape.Validate]; a result whose
// element count overflows int wraps [ErrOverflow]. No shapes give {}x1.
func Minibatch(shapes ...BatchShape) (BatchShape, error) {
	for i, s := range shapes {
		if s.validate("") != nil { // named only on the error path: a name may cost a Sprintf
			return BatchShape{}, s.validate(operandName(len(shapes), i))
		}
	}
	out := BatchShape{Dims: Shape{}, Batch: 1}
	dimsFrom, batchFrom := -1, -1
	for i, s := range shapes {
		if !s.IsScalar() {
			if dimsFrom < 0 {
				out.Dims, dimsFrom = trimTrailingOnes(s.Dims).Clone(), i
			} else if !sameDims(out.Dims, s.Dims) {
				return BatchShape{}, dimsMismatch(shapes, dimsFrom, i)
			}
		}
		if s.Batch > 1 {
			if batchFrom < 0 {
				out.Batch, batchFrom = s.Batch, i
			} else if s.Batch != out.Batch {
				return BatchShape{}, newError(errs(ErrIncompatible, ErrBatch),
					"minibatch shapes %s are incompatible: different minibatch sizes: %d and %d (%s and %s)",
					listShapes(len(shapes), func(i int) string { return shapes[i].String() }), out.Batch, s.Batch,
					operandName(len(shapes), batchFrom), operandName(len(shapes), i))
			}
		}
	}
	if v, _ := count(out.Dims); v > math.MaxInt/out.Batch {
		return BatchShape{}, newError(errs(ErrOverflow),
			"the broadcast result %v of minibatch shapes %s is too large: its element count overflows int",
			out, listShapes(len(shapes), func(i int) string { return shapes[i].String() }))
	}
	return out, nil
}

// dimsMismatch describes Dims of shapes[j] that differ from those of
// shapes[i], neither being a scalar: the first dimension where they differ,
// counting missing trailing dimensions as 1.
func dimsMismatch(shapes []BatchShape, i, j int) error {
	a, b := shapes[i].Dims, shapes[j].Dims
	at := func(s Shape, d int) int {
		if d < len(s) {
			return s[d]
		}
		return 1
	}
	d := 0
	for at(a, d) == at(b, d) {
		d++
	}
	return newError(errs(ErrIncompatible),
		"minibatch shapes %s are incompatible: size %d of %s must match size %d of %s at dimension %d (only a scalar {} broadcasts over dims)",
		listShapes(len(shapes), func(i int) string { return shapes[i].String() }), at(a, d), operandName(len(shapes), i), at(b, d), operandName(len(shapes), j), d)
}

// MinibatchLayout applies [Minibatch] and returns the result together with a
// [Layout] over the result's flat view (Batch, Volume) (see
// [BatchShape.Flat]): each input's stride is 0 along the batch dimension if
// its Batch is 1, and 0 along the volume dimension if it is a scalar.
func MinibatchLayout(shapes ...BatchShape) (BatchShape, Layout, error) {
	out, err := Minibatch(shapes...)
	if err != nil {
		return BatchShape{}, Layout{}, err
	}
	v, _ := count(out.Dims)
	l := newLayout(Shape{out.Batch, v}, len(shapes))
	for i, s := range shapes {
		v, _ := count(s.Dims)
		l.place(i, []int{s.Batch, v}, 0)
	}
	return out, l, nil
}
