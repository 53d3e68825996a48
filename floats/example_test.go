package floats_test

import (
	"fmt"
	"math"

	"github.com/simdkit/elem/floats"
)

// gonum's calls, unchanged but for the import path: dst is the first
// argument and is updated in place.
func Example() {
	dst := []float64{1, 2, 3, 4}
	s := []float64{5, 6, 7, 8}
	floats.Add(dst, s)          // dst[i] += s[i]
	floats.AddScaled(dst, 2, s) // dst[i] += 2*s[i], the product rounded first
	floats.Scale(0.5, dst)      // dst[i] *= 0.5
	fmt.Println(dst, floats.Sum(dst), floats.Dot(dst, s))
	// Output: [8 10 12 14] 44 296
}

// Norm's special cases are gonum's: L = 2 neither overflows nor
// underflows, L = +Inf is the greatest magnitude.
func ExampleNorm() {
	s := []float64{1e200, 1e200, 3e200}
	fmt.Printf("%.5g %.5g %g\n", floats.Norm(s, 2), floats.Norm(s, 1), floats.Norm([]float64{-4, 3}, math.Inf(1)))
	// Output: 3.3166e+200 5e+200 4
}

// MaxIdx and MinIdx skip NaNs, as gonum's do.
func ExampleMaxIdx() {
	s := []float64{math.NaN(), 3, 7, math.NaN(), 7, -1}
	fmt.Println(floats.MaxIdx(s), floats.Max(s), floats.MinIdx(s), floats.HasNaN(s))
	// Output: 2 7 5 true
}

// Span fills dst with evenly spaced values from l to u.
func ExampleSpan() {
	fmt.Printf("%g %.6g\n", floats.Span(make([]float64, 5), 0, 1), floats.LogSpan(make([]float64, 3), 1, 100))
	// Output: [0 0.25 0.5 0.75 1] [1 10 100]
}
