package testkit

import "github.com/simdkit/elem/internal/kernel"

// EachIndex calls f with every index below size, in row-major order (the
// last dimension fastest), and not at all when a size is 0. Rank 0 has one
// index, the empty one. f must not keep idx.
func EachIndex(size []int, f func(idx []int)) {
	for _, n := range size {
		if n <= 0 {
			return
		}
	}
	idx := make([]int, len(size))
	for {
		f(idx)
		d := len(idx) - 1
		for ; d >= 0; d-- {
			if idx[d]++; idx[d] < size[d] {
				break
			}
			idx[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

// Offset is the offset of index idx in an operand with the given strides.
func Offset(idx, stride []int) int {
	off := 0
	for d, i := range idx {
		off += i * stride[d]
	}
	return off
}

// Naive is the N-d reference of every strided elementwise operation: for
// every index (i0, i1, ...) below size it sets
//
//	dst[sum of i_d*ds[d]] = a[sum of i_d*as[d]] op b[sum of i_d*bs[d]]
//
// one element at a time through the generic kernel's scalar expression.
// Strides are in elements and may be zero (a broadcast) or negative; the
// caller passes slices whose element 0 is the operand's index 0 and that hold
// every element the index reaches.
func Naive[T kernel.Number](op kernel.Op, size []int, dst []T, ds []int, a []T, as []int, b []T, bs []int) {
	EachIndex(size, func(idx []int) {
		od, oa, ob := Offset(idx, ds), Offset(idx, as), Offset(idx, bs)
		kernel.RowVV(op, dst[od:od+1], a[oa:oa+1], b[ob:ob+1])
	})
}
