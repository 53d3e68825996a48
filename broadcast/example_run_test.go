package broadcast_test

import (
	"fmt"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/broadcast"
)

func ExampleApply() {
	// Scale the channels of a 2 x 2 RGB image: (2,2,3) * (3).
	img := []float32{
		1, 1, 1, 2, 2, 2,
		3, 3, 3, 4, 4, 4,
	}
	gain := []float32{0.5, 1, 2}
	out := make([]float32, len(img))
	err := broadcast.Apply(elem.OpMul, out, img, broadcast.Shape{2, 2, 3}, gain, broadcast.Shape{3})
	fmt.Println(out, err)
	// Output: [0.5 1 2 1 2 4 1.5 3 6 2 4 8] <nil>
}

func ExampleRun() {
	// Plan once, run many times: a (4,1) column plus a (1,3) row.
	p, err := broadcast.NewPlan(broadcast.RuleNumpy, broadcast.Shape{4, 1}, broadcast.Shape{1, 3})
	if err != nil {
		panic(err)
	}
	dst := make([]float64, p.OutLen())
	_ = broadcast.Run(p, elem.OpAdd, dst, []float64{0, 10, 20, 30}, []float64{1, 2, 3})
	fmt.Println(p.Out(), dst)
	// Output: (4,3) [1 2 3 11 12 13 21 22 23 31 32 33]
}

func ExampleApplyInPlace() {
	// x.sub_(mean) for x of shape (2,3) and a per-row mean of shape (2,1).
	x := []float32{1, 2, 3, 10, 20, 30}
	mean := []float32{2, 20}
	err := broadcast.ApplyInPlace(elem.OpSub, x, broadcast.Shape{2, 3}, mean, broadcast.Shape{2, 1})
	fmt.Println(x, err)

	// The result may not change x's shape: (3) += (1,3) would be (1,3).
	err = broadcast.ApplyInPlace(elem.OpAdd, x[:3], broadcast.Shape{3}, mean[:1], broadcast.Shape{1, 1})
	fmt.Println(err != nil)
	// Output:
	// [-1 0 1 -10 0 10] <nil>
	// true
}

func ExampleTo() {
	// numpy.broadcast_to((3,1) data, (2,1,4)) and copy: the result is (2,3,4).
	dst := make([]float64, 24)
	out, err := broadcast.To(dst, []float64{1, 2, 3}, broadcast.Shape{3, 1}, broadcast.Shape{2, 1, 4})
	fmt.Println(out, err, dst[:12])
	// Output: (2,3,4) <nil> [1 1 1 1 2 2 2 2 3 3 3 3]
}

func ExampleApplyMinibatch() {
	// primitiv: a {}x3 minibatch of scalars plus the scalar {}x1.
	dst := make([]float32, 3)
	err := broadcast.ApplyMinibatch(elem.OpAdd, dst,
		[]float32{1, 2, 3}, broadcast.BatchShape{Batch: 3},
		[]float32{4}, broadcast.BatchShape{Batch: 1})
	fmt.Println(dst, err)
	// Output: [5 6 7] <nil>
}

func ExampleApplyRule() {
	// PDPD: b of shape (3) broadcast onto a of shape (2,3,2) at axis 1.
	a := []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	b := []float32{100, 200, 300}
	dst := make([]float32, len(a))
	err := broadcast.ApplyRule(broadcast.RulePDPD(1), elem.OpAdd, dst, a, broadcast.Shape{2, 3, 2}, b, broadcast.Shape{3})
	fmt.Println(dst, err)
	// Output: [101 102 203 204 305 306 107 108 209 210 311 312] <nil>
}

func ExampleRunInPlace() {
	// x.sub_(mean), planned once: x of shape (2,3), a per-row mean (2,1).
	p, err := broadcast.NewInPlacePlan(broadcast.Shape{2, 3}, broadcast.Shape{2, 1})
	if err != nil {
		panic(err)
	}
	x := []float64{1, 2, 3, 10, 20, 30}
	err = broadcast.RunInPlace(p, elem.OpSub, x, []float64{2, 20})
	fmt.Println(x, err)
	// Output: [-1 0 1 -10 0 10] <nil>
}

func ExampleCopy() {
	// A bidirectional plan sizes dst: (3,1) to (2,1,4) is (2,3,4).
	p, err := broadcast.NewBidirectionalPlan(broadcast.Shape{3, 1}, broadcast.Shape{2, 1, 4})
	if err != nil {
		panic(err)
	}
	dst := make([]float32, p.OutLen())
	err = broadcast.Copy(p, dst, []float32{1, 2, 3})
	fmt.Println(p.Out(), dst[:12], err)
	// Output: (2,3,4) [1 1 1 1 2 2 2 2 3 3 3 3] <nil>
}

func ExamplePlan_OutBatch() {
	// A {2}x3 minibatch times a {2}x1 one: the result is {2}x3.
	p, err := broadcast.NewMinibatchPlan(broadcast.BatchShape{Dims: broadcast.Shape{2}, Batch: 3},
		broadcast.BatchShape{Dims: broadcast.Shape{2}, Batch: 1})
	if err != nil {
		panic(err)
	}
	out, _ := p.OutBatch()
	fmt.Println(out, p.Out())
	// Output: {2}x3 (3,2)
}
