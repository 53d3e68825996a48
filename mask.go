package elem

import (
	"bytes"

	"github.com/simdkit/elem/internal/kernel"
)

// Count returns the number of true elements of mask (NumPy's
// count_nonzero, mask.sum()).
func Count(mask []bool) int {
	return kernel.CountTrue(mask)
}

// Any reports whether some element of mask is true (false for an empty
// mask).
func Any(mask []bool) bool {
	return bytes.IndexByte(kernel.BoolBytes(mask), 1) >= 0
}

// All reports whether every element of mask is true (true for an empty
// mask).
func All(mask []bool) bool {
	return bytes.IndexByte(kernel.BoolBytes(mask), 0) < 0
}
