package broadcast_test

import (
	"errors"
	"fmt"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/broadcast"
)

func ExampleNumpy() {
	out, err := broadcast.Numpy(broadcast.Shape{5, 1, 4, 1}, broadcast.Shape{3, 1, 1})
	fmt.Println(out, err)

	_, err = broadcast.Numpy(broadcast.Shape{5, 2, 4, 1}, broadcast.Shape{3, 1, 1})
	fmt.Println(err)
	fmt.Println(errors.Is(err, broadcast.ErrIncompatible))
	// Output:
	// (5,3,4,1) <nil>
	// broadcast: shapes (5,2,4,1) and (3,1,1) are incompatible: size 2 of a must match size 3 of b at dimension 1
	// true
}

func ExamplePDPD() {
	a := broadcast.Shape{2, 3, 4, 5}
	out, err := broadcast.PDPD(a, broadcast.Shape{3, 1}, 1)
	fmt.Println(out, err)
	aligned, _ := broadcast.AlignPDPD(a, broadcast.Shape{3, 1}, 1)
	fmt.Println(aligned)

	_, err = broadcast.PDPD(a, broadcast.Shape{3, 4}, -2)
	fmt.Println(errors.Is(err, broadcast.ErrAxis))
	// Output:
	// (2,3,4,5) <nil>
	// (1,3,1,1)
	// true
}

func ExampleInPlace() {
	fmt.Println(broadcast.InPlace(broadcast.Shape{5, 3, 4, 1}, broadcast.Shape{3, 1, 1}))
	err := broadcast.InPlace(broadcast.Shape{1, 3, 1}, broadcast.Shape{3, 1, 7})
	fmt.Println(err)
	// Output:
	// <nil>
	// broadcast: cannot write the result of shapes (1,3,1) and (3,1,7) in place into a: the expanded size 1 of a must match the existing size 7 of b at non-singleton dimension 2 (the result would be (3,3,7))
}

func ExampleMinibatch() {
	a := broadcast.BatchShape{Dims: broadcast.Shape{}, Batch: 3}
	out, err := broadcast.Minibatch(a, broadcast.BatchShape{Batch: 1})
	fmt.Println(out, err)

	_, err = broadcast.Minibatch(a, broadcast.BatchShape{Batch: 2})
	fmt.Println(err)
	fmt.Println(errors.Is(err, broadcast.ErrBatch))
	// Output:
	// {}x3 <nil>
	// broadcast: minibatch shapes {}x3 and {}x2 are incompatible: different minibatch sizes: 3 and 2 (a and b)
	// true
}

func ExampleRule_Layout() {
	// Adding a bias row to a matrix: b is read with stride 0 along the rows.
	l, err := broadcast.RuleNumpy.Layout(broadcast.Shape{2, 3}, broadcast.Shape{3})
	fmt.Println(l.Out, l.OutStrides, l.Strides, err)
	// Output:
	// (2,3) [3 1] [[3 1] [0 1]] <nil>
}

func ExampleStrides() {
	st, err := broadcast.Strides(broadcast.Shape{2, 1, 5}, broadcast.Shape{2, 4, 5})
	fmt.Println(st, err)
	// Output:
	// [5 0 1] <nil>
}

func ExampleApplyTernary() {
	// A dense layer's x*w + b, rounded once: x is (2,3), w a row of 3
	// weights, b one bias per row of x.
	x := []float32{1, 2, 3, 4, 5, 6}
	w := []float32{10, 100, 1000}
	b := []float32{0.5, -0.5}
	out := make([]float32, 6)
	err := broadcast.ApplyTernary(elem.OpFMA, out, x, broadcast.Shape{2, 3}, w, broadcast.Shape{3}, b, broadcast.Shape{2, 1})
	fmt.Println(out, err)
	// Output:
	// [10.5 200.5 3000.5 39.5 499.5 5999.5] <nil>
}

func ExampleSelect() {
	// NumPy's where(mask, x, 0) with one mask value per row.
	x := []float64{1, 2, 3, 4, 5, 6}
	mask := []bool{true, false}
	out := make([]float64, 6)
	err := broadcast.Select(out, mask, broadcast.Shape{2, 1}, x, broadcast.Shape{2, 3}, []float64{0}, broadcast.Shape{})
	fmt.Println(out, err)
	// Output:
	// [1 2 3 0 0 0] <nil>
}

// A mask of the pixels above their row's threshold: a (2, 3) image against
// a (2, 1) column of thresholds, as NumPy's img > thr[:, None].
func ExampleCompare() {
	img := []uint8{10, 200, 90, 40, 50, 60}
	thr := []uint8{100, 45}
	mask := make([]bool, 6)
	if err := broadcast.Compare(elem.OpGt, mask, img, broadcast.S(2, 3), thr, broadcast.S(2, 1)); err != nil {
		panic(err)
	}
	fmt.Println(mask)
	// Output: [false true false false true true]
}
