package elem_test

import (
	"fmt"

	"github.com/simdkit/elem"
)

// Loading float16 weights: the file's 16-bit values are elem.Float16 as
// they are; ScaleHalf dequantises them into float32 in one pass, and
// DotHalfFloat32 multiplies them with float32 activations directly.
func ExampleScaleHalf() {
	raw := []uint16{0x3c00, 0xc000, 0x3555, 0x7bff} // 1, -2, 0.33325, 65504 as stored
	w := make([]elem.Float16, len(raw))
	for i, b := range raw {
		w[i] = elem.Float16(b)
	}
	weights := make([]float32, len(w))
	elem.ScaleHalf(weights, w, 0.5)
	fmt.Println(weights)
	fmt.Println(elem.DotHalfFloat32(w, []float32{1, 1, 3, 0}))
	// Output:
	// [0.5 -1 0.16662598 32752]
	// -0.00024414063
}

// A bfloat16 round trip: each float32 rounded to nearest even (not
// truncated) into bfloat16, a subnormal kept, a value past the largest
// bfloat16 (3.3895e38) to +Inf, then widened back exactly.
func ExampleConvert_bfloat16() {
	acts := []float32{1.00390625, 1.01171875, 3.14159265, 1e-40, 3.4e38}
	bf := make([]elem.BFloat16, len(acts))
	elem.Convert(bf, acts)
	fmt.Println(bf)
	elem.Convert(acts, bf)
	fmt.Println(acts)
	// Output:
	// [1 1.016 3.14 9e-41 +Inf]
	// [1 1.015625 3.140625 9.1835e-41 +Inf]
}
