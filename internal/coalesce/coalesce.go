// Package coalesce simplifies loop nests over strided operands: the one
// implementation behind broadcast's plans and expr's fused runs.
package coalesce

// Nest simplifies a loop nest in place and returns its new rank: the
// nest's axes are size[i], outermost first, and operand k (dst and every
// input) moves stride[k][i] elements along axis i. It
//
//   - drops every axis of size 1, which moves no operand;
//   - merges axis i into axis i+1 where, for every operand, stride[k][i] ==
//     size[i+1]*stride[k][i+1]: stepping along i is then stepping on along
//     i+1, so one loop of size[i]*size[i+1] visits the same elements;
//   - reduces a nest with a size of 0 to one axis of size 0 (no elements).
//
// Strides may be anything, zero and negative included, and there may be any
// number of operands: the result visits exactly the elements of the original
// nest, for every operand, in the same order. The kept axes are moved to the
// front of size and of each stride[k]; the rest is left undefined.
func Nest(size []int, stride [][]int) int {
	for _, n := range size {
		if n == 0 {
			size[0] = 0
			for _, st := range stride {
				st[0] = 0
			}
			return 1
		}
	}
	// Walk from the innermost axis out, keeping axes at the end of the arrays:
	// axis w is the last one kept, the one an outer axis may merge into.
	w := len(size)
	for i := len(size) - 1; i >= 0; i-- {
		if size[i] == 1 {
			continue
		}
		if w < len(size) && continues(size, stride, i, w) {
			size[w] *= size[i]
			continue
		}
		w--
		size[w] = size[i]
		for _, st := range stride {
			st[w] = st[i]
		}
	}
	rank := copy(size, size[w:])
	for _, st := range stride {
		copy(st, st[w:])
	}
	return rank
}

// continues reports whether outer axis i steps every operand exactly as far
// as a whole run of inner axis w does.
func continues(size []int, stride [][]int, i, w int) bool {
	for _, st := range stride {
		if st[i] != size[w]*st[w] {
			return false
		}
	}
	return true
}
