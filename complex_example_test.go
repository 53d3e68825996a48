package elem_test

import (
	"fmt"

	"github.com/simdkit/elem"
)

// A spectrum times a transfer function, its magnitude and phase, and its
// power.
func ExampleMul_complex() {
	spec := []complex64{1 + 1i, 2 - 1i, -3 + 0.5i, 4i}
	h := []complex64{0.5, 1i, -1, 2 - 2i}
	elem.Mul(spec, spec, h)
	mag, phase := make([]float32, len(spec)), make([]float32, len(spec))
	elem.Magnitude(mag, spec)
	elem.Phase(phase, spec)
	fmt.Println(spec)
	fmt.Printf("%.4f\n%.4f\n", mag, phase)
	fmt.Println(elem.DotConj(spec, spec))
	// Output:
	// [(0.5+0.5i) (1+2i) (3-0.5i) (8+8i)]
	// [0.7071 2.2361 3.0414 11.3137]
	// [0.7854 1.1071 -0.1651 0.7854]
	// (142.75+0i)
}

// Parts in, values out, and back.
func ExampleFromParts() {
	re, im := []float64{1, 2, 3}, []float64{-1, 0, 0.5}
	z := make([]complex128, 3)
	elem.FromParts(z, re, im)
	elem.Conj(z, z)
	elem.Imag(im, z)
	fmt.Println(z, im)
	// Output:
	// [(1+1i) (2-0i) (3-0.5i)] [1 -0 -0.5]
}
