package broadcast

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// Shape is the list of dimension sizes of a row-major (C-order) array,
// outermost dimension first. The empty (or nil) Shape has rank 0: a scalar
// holding one element.
//
// A valid Shape has no negative size, and the product of its non-zero sizes
// fits in an int (so every partial product, and so every stride, fits too,
// even when a 0 size makes the array empty). Functions in this package return
// an error wrapping [ErrNegativeDim] or [ErrOverflow] for any other Shape.
type Shape []int

// String formats s as in the error messages: "(2,3)", "(3)", or "()" for rank 0.
func (s Shape) String() string {
	var sb strings.Builder
	sb.WriteByte('(')
	for i, d := range s {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.Itoa(d))
	}
	sb.WriteByte(')')
	return sb.String()
}

// Rank returns the number of dimensions of s.
func (s Shape) Rank() int { return len(s) }

// Equal reports whether s and t have the same rank and the same sizes.
// Rank matters: () and (1) are not equal. A nil Shape equals an empty one.
func (s Shape) Equal(t Shape) bool {
	if len(s) != len(t) {
		return false
	}
	for i := range s {
		if s[i] != t[i] {
			return false
		}
	}
	return true
}

// Clone returns a copy of s that shares no memory with it. The copy of a
// rank-0 shape is an empty, non-nil Shape.
func (s Shape) Clone() Shape {
	return append(Shape{}, s...)
}

// Validate returns nil if s is a valid shape, otherwise an error wrapping
// [ErrNegativeDim] (and [ErrInvalidShape]) for a negative size, or
// [ErrOverflow] if the product of its non-zero sizes overflows int.
func (s Shape) Validate() error { return s.validate("") }

// Size returns the number of elements of s: the product of its sizes, 1 for
// rank 0, 0 if any size is 0. It returns an error, as [Shape.Validate] does,
// if s is invalid.
func (s Shape) Size() (int, error) {
	if err := s.validate(""); err != nil {
		return 0, err
	}
	n, _ := count(s)
	return n, nil
}

// Strides returns the element strides of contiguous row-major data of shape
// s: the last dimension has stride 1 and each other dimension the product of
// the sizes after it. Rank 0 gives an empty slice. It returns an error, as
// [Shape.Validate] does, if s is invalid.
func (s Shape) Strides() ([]int, error) {
	if err := s.validate(""); err != nil {
		return nil, err
	}
	return contiguous(s), nil
}

// CheckLen returns nil if n, the length of a data slice, is the element
// count of s, and otherwise an error wrapping [ErrDataLength] (or the error
// of [Shape.Validate] if s is invalid).
func (s Shape) CheckLen(n int) error { return s.checkLen("", n) }

func (s Shape) checkLen(name string, n int) error {
	if err := s.validate(name); err != nil {
		return err
	}
	want, _ := count(s)
	if n != want {
		return newError(errs(ErrDataLength), "data%s has %d elements but shape %v needs %d", of(name), n, s.Clone(), want)
	}
	return nil
}

// validate checks s, naming it name (if not empty) in the message.
func (s Shape) validate(name string) error {
	for i, d := range s {
		if d < 0 {
			return newError(errs(ErrInvalidShape, ErrNegativeDim),
				"shape %v%s is invalid: size %d at dimension %d is negative", s.Clone(), of(name), d, i)
		}
	}
	if _, ok := count(s); !ok {
		return newError(errs(ErrOverflow),
			"shape %v%s is too large: the product of its sizes overflows int", s.Clone(), of(name))
	}
	return nil
}

// of returns " of name", or "" for an empty name.
func of(name string) string {
	if name == "" {
		return ""
	}
	return " of " + name
}

// count returns the element count of a shape with no negative size, and
// whether the product of its non-zero sizes fits in an int.
func count(s Shape) (n int, ok bool) {
	p, zero := 1, false
	for _, d := range s {
		if d == 0 {
			zero = true
			continue
		}
		hi, lo := bits.Mul64(uint64(p), uint64(d))
		if hi != 0 || lo > math.MaxInt {
			return 0, false
		}
		p = int(lo)
	}
	if zero {
		return 0, true
	}
	return p, true
}

// contiguous returns the row-major strides of a valid shape.
func contiguous(s Shape) []int {
	st := make([]int, len(s))
	stridesInto(st, s, 0, false)
	return st
}

// trimTrailingOnes returns s without its trailing sizes of 1 (sharing memory).
func trimTrailingOnes(s Shape) Shape {
	n := len(s)
	for n > 0 && s[n-1] == 1 {
		n--
	}
	return s[:n]
}
