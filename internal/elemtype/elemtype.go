// Package elemtype tells elem's element types apart inside generic code,
// in ways the compiler folds in every instantiation, and reinterprets
// slices between types of one layout: how calls whose constraint takes
// the complex types beside the real ones reach kernels that take the real
// ones only.
package elemtype

import "unsafe"

// Arith is every element type of the arithmetic calls: the real numbers
// and the complex ones.
type Arith interface {
	~float32 | ~float64 | ~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~complex64 | ~complex128
}

// Kind is an element type as KindOf tells it: integers by size only
// (addition, subtraction and multiplication in two's complement do not
// depend on the sign; Signed tells the sign where it matters).
type Kind uint8

// The kinds.
const (
	Float32 Kind = iota
	Float64
	Int8
	Int16
	Int32
	Int64
	Complex64
	Complex128
)

// KindOf returns the kind of T, from its size and arithmetic on constants
// only, cheap enough to inline so that the compiler folds it (a program
// that adds float32 values links no other type's kernels): 127^4 + 1
// rounds to 127^4 in float32 parts (it needs 28 bits) and not in float64
// or in integers of 32 bits or more, and 127^8 + 1 rounds to 127^8 in
// float64 (57 bits) and not in 64-bit integers.
func KindOf[T Arith]() Kind {
	var one, m T = 1, 127
	m4 := m * m
	m4 *= m4
	m8 := m4 * m4
	single, double := m4+one == m4, m8+one == m8
	switch unsafe.Sizeof(one) {
	case 1:
		return Int8
	case 2:
		return Int16
	case 4:
		if single {
			return Float32
		}
		return Int32
	case 8:
		if single {
			return Complex64
		}
		if double {
			return Float64
		}
		return Int64
	}
	return Complex128
}

// IsComplex reports whether T is a complex type (KindOf's test, written
// out: through KindOf it would not inline).
func IsComplex[T Arith]() bool {
	var one, m T = 1, 127
	m4 := m * m
	m4 *= m4
	return unsafe.Sizeof(one) == 16 || unsafe.Sizeof(one) == 8 && m4+one == m4
}

// Signed reports, for an integer T, whether it is signed: -1 halves to 0
// only then. (A complex T's division would be a runtime call: ask only of
// integers.)
func Signed[T Arith]() bool {
	var zero, one T = 0, 1
	return (zero-one)/(one+one) == zero
}

// Recast returns x's memory as a slice of N (its bytes in whole Ns).
func Recast[N, T any](x []T) []N {
	var t T
	var n N
	if unsafe.Sizeof(t) == unsafe.Sizeof(n) { // the same header, no checks
		return *(*[]N)(unsafe.Pointer(&x))
	}
	return unsafe.Slice((*N)(unsafe.Pointer(unsafe.SliceData(x))), uintptr(len(x))*unsafe.Sizeof(t)/unsafe.Sizeof(n))
}

// As returns x's bits as a T of x's size.
func As[T, X any](x X) T {
	var t T
	if unsafe.Sizeof(t) != unsafe.Sizeof(x) { // folds away
		panic("elemtype: As: sizes differ")
	}
	return *(*T)(unsafe.Pointer(&x))
}
