package broadcast

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/elemtype"
	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// naiveEach is the N-d reference loop of every view call: it returns dst's
// data after dst[i] = f(at) for every index i of dst, at[k] being the index
// in input k's data of its element broadcast to i, computed one element at
// a time on a copy of dst's data (an input that is exactly dst is read
// before its element is written, as in place).
func naiveEach[D Element](dst View[D], ins []viewOperand, f func(at []int) D) []D {
	out := slices.Clone(dst.Data)
	base, _ := dst.origin(nameDst)
	bases, strides := make([]int, len(ins)), make([][]int, len(ins))
	for k, in := range ins {
		bases[k], _ = in.origin()
		strides[k] = make([]int, len(dst.Shape))
		for d := range dst.Shape {
			if i := d - (len(dst.Shape) - len(in.shape)); i >= 0 && in.shape[i] != 1 {
				strides[k][d] = in.strides[i]
			}
		}
	}
	at := make([]int, len(ins))
	testkit.EachIndex(dst.Shape, func(idx []int) {
		for k := range ins {
			at[k] = bases[k] + testkit.Offset(idx, strides[k])
		}
		out[base+testkit.Offset(idx, dst.Strides)] = f(at)
	})
	return out
}

// randomBools returns a function that makes n random bools.
func randomBools(rng *rand.Rand) func(int) []bool {
	return func(n int) []bool {
		out := make([]bool, n)
		for i := range out {
			out[i] = rng.IntN(2) == 0
		}
		return out
	}
}

// randomElems returns a function that makes n random values of T: elem's
// numbers with their specials, complex values with special parts, bools.
func randomElems[T Element](rng *rand.Rand) func(int) []T {
	return func(n int) []T {
		out := make([]T, n)
		switch s := any(out).(type) {
		case []bool:
			copy(s, randomBools(rng)(n))
		case []complex64:
			for i := range s {
				s[i] = complex64(testkit.RandomComplex(rng, 4))
			}
		case []complex128:
			for i := range s {
				s[i] = testkit.RandomComplex(rng, 4)
			}
		default: // a number: random bits, NaNs with payloads among them
			b := elemtype.Recast[byte](out)
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
		}
		return out
	}
}

// viewCase is a random call's layout: dst's shape and the inputs' shapes,
// which broadcast to it.
type viewCase struct {
	out Shape
	ins []Shape
}

// randomCase returns the shapes of a call of n inputs: dst's of rank 0 to
// 6 with sizes 0 to 33, 1s frequent and 0s rare, and each input's a
// suffix of it with some sizes 1 (a rank-0 input among them).
func randomCase(rng *rand.Rand, n int) viewCase {
	c := viewCase{out: make(Shape, rng.IntN(7))}
	for d := range c.out {
		c.out[d] = []int{1, 2, 3, 4, 5, 7, 9, 16, 17, 33, 0}[rng.IntN(11)]
		if rng.IntN(12) != 0 && c.out[d] == 0 {
			c.out[d] = 2
		}
	}
	for range n {
		s := slices.Clone(c.out[rng.IntN(len(c.out)+1):])
		for d := range s {
			if rng.IntN(3) == 0 {
				s[d] = 1
			}
		}
		c.ins = append(c.ins, s)
	}
	return c
}

// viewCases returns random cases of n inputs with at most 4096 elements.
func viewCases(seed uint64, n, count int) []viewCase {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	var cases []viewCase
	for len(cases) < count {
		if c := randomCase(rng, n); elements(c.out) <= 1<<12 {
			cases = append(cases, c)
		}
	}
	return cases
}

// inPlace returns v when it may be dst in place (no repeated element),
// and ok.
func inPlace[T Element](v View[T]) (View[T], bool) {
	for d, st := range v.Strides {
		if st == 0 && v.Shape[d] > 1 {
			return v, false
		}
	}
	return View[T]{Data: v.Data, Shape: v.Shape, Strides: slices.Clone(v.Strides)}, true
}

// requireSameData checks dst's data against want bit for bit, complex
// values as their parts' bits.
func requireSameData[T Element](t *testing.T, want, got []T, what string) {
	t.Helper()
	if c, ok := any(want).([]complex128); ok {
		testkit.RequireSameBits(t, elemtype.Recast[uint64](c), elemtype.Recast[uint64](any(got).([]complex128)), what)
		return
	}
	testkit.RequireSameBits(t, want, got, what)
}

// what describes a call for messages.
func what(name string, views ...viewOperand) string {
	s := name
	for _, v := range views {
		s += fmt.Sprintf(", %s %v %v", v.name, v.shape, v.strides)
	}
	return s
}

func TestCopyViewMatchesNaive(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", testCopyView[float32])
		t.Run("float64", testCopyView[float64])
		t.Run("int8", testCopyView[int8])
		t.Run("uint8", testCopyView[uint8])
		t.Run("int16", testCopyView[int16])
		t.Run("uint16", testCopyView[uint16])
		t.Run("int32", testCopyView[int32])
		t.Run("uint32", testCopyView[uint32])
		t.Run("int64", testCopyView[int64])
		t.Run("uint64", testCopyView[uint64])
		t.Run("Float16", testCopyView[elem.Float16])
		t.Run("bool", testCopyView[bool])
		t.Run("complex64", testCopyView[complex64])
		t.Run("complex128", testCopyView[complex128])
	})
}

// testCopyView runs CopyView and FillView on random layouts of every rank,
// broadcast inputs and dst exactly src among them, and on the forms of
// testCopyForms, against the naive loop.
func testCopyView[T Element](t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	fill := randomElems[T](rng)
	for i, c := range viewCases(33, 1, testkit.Sweep(300, 60, 40)) {
		src := randomLayout(rng, c.ins[0], true, fill)
		dst := randomLayout(rng, c.out, false, fill)
		if i%5 == 0 && c.out.Equal(c.ins[0]) {
			if v, ok := inPlace(src); ok {
				dst = v
			}
		}
		checkCopy(t, "copy", dst, src)
		checkFill(t, dst, fill(1)[0])
	}
	testCopyForms[T](t)
}

// checkCopy runs CopyView and compares dst's data, elements outside the
// view included, with the naive loop's, and src's with what it was.
func checkCopy[T Element](t *testing.T, name string, dst, src View[T]) {
	t.Helper()
	ops := []viewOperand{operandOf(nameSrc, src)}
	msg := what(name, operandOf(nameDst, dst), ops[0])
	want := naiveEach(dst, ops, func(at []int) T { return src.Data[at[0]] })
	srcData := slices.Clone(src.Data)
	require.NoError(t, CopyView(dst, src), msg)
	requireSameData(t, want, dst.Data, msg)
	if !sameView(dst, src) {
		requireSameData(t, srcData, src.Data, msg+": src written")
	}
}

// checkFill is checkCopy for FillView.
func checkFill[T Element](t *testing.T, dst View[T], v T) {
	t.Helper()
	msg := what(fmt.Sprintf("fill with %v", v), operandOf(nameDst, dst))
	want := naiveEach(dst, nil, func([]int) T { return v })
	require.NoError(t, FillView(dst, v), msg)
	requireSameData(t, want, dst.Data, msg)
}

func TestViewCallsMatchNaive(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", testViewCalls[float32])
		t.Run("float64", testViewCalls[float64])
		t.Run("int32", testViewCalls[int32])
		t.Run("uint8", testViewCalls[uint8])
		t.Run("int64", testViewCalls[int64])
		t.Run("uint16", testViewCalls[uint16])
	})
}

// testViewCalls runs every unary op, ternary op and comparison and Select
// (the mask a bool view laid out as the others) on random layouts of three
// inputs against the generic kernel's one-element rows, dst sometimes
// exactly an input; an op not defined on T (sqrt on int32) is an error
// wrapping ErrOp, and nothing is written.
func testViewCalls[T elem.Number](t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	bools := randomBools(rng)
	for i, c := range viewCases(43, 3, testkit.Sweep(150, 30, 15)) {
		a, b, cc := randomView[T](rng, c.ins[0], true), randomView[T](rng, c.ins[1], true), randomView[T](rng, c.ins[2], true)
		dst := randomView[T](rng, c.out, false)
		if k := i % 4; k < 3 && c.out.Equal(c.ins[k]) {
			if v, ok := inPlace([]View[T]{a, b, cc}[k]); ok {
				dst = v
			}
		}
		ins := []viewOperand{operandOf(nameA, a), operandOf(nameB, b), operandOf(nameC, cc)}
		for _, op := range elem.UnaryOps() {
			checkViewCall(t, op.String(), elem.UnaryDefinedOn[T](op), T(0), dst, ins[:1], func() error { return ApplyUnaryView(op, dst, a) }, func(at []int) T {
				var out [1]T
				kernel.UnaryRowV(kernel.UnaryOp(op), out[:], a.Data[at[0]:at[0]+1])
				return out[0]
			})
		}
		for _, op := range elem.TernaryOps() {
			checkViewCall(t, op.String(), elem.TernaryDefinedOn[T](op), T(0), dst, ins, func() error { return ApplyTernaryView(op, dst, a, b, cc) }, func(at []int) T {
				var out [1]T
				kernel.TernaryRowVVV(kernel.TernaryOp(op), out[:], a.Data[at[0]:at[0]+1], b.Data[at[1]:at[1]+1], cc.Data[at[2]:at[2]+1])
				return out[0]
			})
		}
		mask := randomLayout(rng, c.out, false, bools)
		for _, op := range elem.CompareOps() {
			checkViewCall(t, op.String(), elem.CompareDefinedOn[T](op), T(0), mask, ins[:2], func() error { return CompareView(op, mask, a, b) }, func(at []int) bool {
				var out [1]bool
				kernel.CompareRowVV(kernel.CompareOp(op), out[:], a.Data[at[0]:at[0]+1], b.Data[at[1]:at[1]+1])
				return out[0]
			})
		}
		cond := randomLayout(rng, c.ins[0], true, bools)
		ins = []viewOperand{operandOf(nameCond, cond), ins[1], ins[2]}
		checkViewCall(t, "select", true, T(0), dst, ins, func() error { return SelectView(dst, cond, b, cc) }, func(at []int) T {
			if cond.Data[at[0]] {
				return b.Data[at[1]]
			}
			return cc.Data[at[2]]
		})
	}
}

// checkViewCall runs call, a view call whose dst is dst and whose inputs
// are ins, and checks dst's data, elements outside the view included:
// where the op is defined on the type (zero's) against the naive loop of
// f, elsewhere for an error wrapping ErrOp that names the op and the type,
// with nothing written.
func checkViewCall[D Element](t *testing.T, op string, defined bool, zero any, dst View[D], ins []viewOperand, call func() error, f func(at []int) D) {
	t.Helper()
	msg := what(op, append([]viewOperand{operandOf(nameDst, dst)}, ins...)...)
	orig := slices.Clone(dst.Data)
	if !defined {
		requireErr(t, call(), errs(ErrOp), op, fmt.Sprintf("%T", zero))
		requireSameData(t, orig, dst.Data, msg+": written on error")
		return
	}
	want := naiveEach(dst, ins, f)
	require.NoError(t, call(), msg)
	requireSameData(t, want, dst.Data, msg)
	copy(dst.Data, orig)
}

func TestConvertViewMatchesNaive(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32 to uint8", testConvertView[uint8, float32])
		t.Run("uint8 to float32", testConvertView[float32, uint8])
		t.Run("float64 to int32", testConvertView[int32, float64])
		t.Run("int64 to float32", testConvertView[float32, int64])
		t.Run("int16 to uint64", testConvertView[uint64, int16])
		t.Run("float32 to Float16", testConvertView[elem.Float16, float32])
		t.Run("BFloat16 to float64", testConvertView[float64, elem.BFloat16])
		t.Run("int32 to float32 (same size)", testConvertView[float32, int32])
	})
}

// testConvertView converts random layouts against elem.Convert on each
// element; with types of one size, dst is sometimes src itself.
func testConvertView[D, S elem.Number](t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	for i, c := range viewCases(73, 1, testkit.Sweep(200, 40, 20)) {
		src := randomView[S](rng, c.ins[0], true)
		dst := randomView[D](rng, c.out, false)
		ins := []viewOperand{operandOf(nameSrc, src)}
		if i%4 == 0 && c.out.Equal(c.ins[0]) && sizeOf[D]() == sizeOf[S]() {
			if v, ok := inPlace(src); ok {
				dst = recastView[D](v)
			}
		}
		msg := what(fmt.Sprintf("convert %T to %T", S(0), D(0)), operandOf(nameDst, dst), ins[0])
		want := naiveEach(dst, ins, func(at []int) D {
			var out [1]D
			elem.Convert(out[:], src.Data[at[0]:at[0]+1])
			return out[0]
		})
		require.NoError(t, ConvertView(dst, src), msg)
		requireSameData(t, want, dst.Data, msg)
	}
}

func sizeOf[T any]() uintptr { return unsafe.Sizeof(*new(T)) }

// TestViewCallErrors: every view call refuses bad views, shapes that do
// not broadcast to dst's, overlaps (element types of other sizes
// included), ops not defined on the type and invalid ops, with the
// sentinel and a message naming the shapes, and writes nothing.
func TestViewCallErrors(t *testing.T) {
	d6 := make([]float32, 6)
	bits := elemtype.Recast[bool](d6) // the same memory as bools: 24 of them
	m := make([]bool, 6)
	f6, i6 := make([]float32, 6), make([]int32, 6)
	v23 := ViewOf(d6, S(2, 3))
	for _, c := range []struct {
		name     string
		call     func() error
		sentinel error
		msg      string
	}{
		{"copy: shapes", func() error { return CopyView(v23, ViewOf(f6, S(3, 2))) }, ErrIncompatible,
			"src (3,2) does not broadcast to dst's shape (2,3)"},
		{"copy: dst of lower rank", func() error { return CopyView(ViewOf(d6[:3], S(3)), ViewOf(f6, S(2, 3))) }, ErrIncompatible,
			"src (2,3) does not broadcast to dst's shape (3)"},
		{"copy: src outside its data", func() error { return CopyView(v23, View[float32]{f6[:5], S(2, 3), []int{3, 1}}) }, ErrView,
			"src with shape (2,3) and strides [3 1] does not fit in its data"},
		{"copy: dst repeats", func() error { return CopyView(View[float32]{d6, S(2, 3), []int{0, 1}}, ViewOf(f6[:3], S(3))) }, ErrOverlap,
			"dst with shape (2,3) and strides [0 1] writes some elements twice"},
		{"copy: partial overlap", func() error { return CopyView(View[float32]{d6[1:], S(5), []int{1}}, ViewOf(d6[:5], S(5))) }, ErrOverlap,
			"dst (shape (5), strides [1]) shares elements with src (shape (5), strides [1]) without being exactly src"},
		{"copy: transposed onto itself", func() error { return CopyView(v23, View[float32]{d6, S(2, 3), []int{1, 2}}) }, ErrOverlap,
			"shares elements with src"},
		{"copy: 17 dims", func() error { return CopyView(ViewOf(d6[:1], make(Shape, 17)), ViewOf(f6[:1], S())) }, ErrRank,
			"dst has 17 dims: views have at most 16"},
		{"fill: strides count", func() error { return FillView(View[float32]{d6, S(2, 3), []int{1}}, 1) }, ErrView,
			"dst: shape (2,3) has 2 dims but 1 strides"},
		{"fill: dst repeats", func() error { return FillView(View[float32]{d6, S(3, 2), []int{1, 1}}, 1) }, ErrOverlap,
			"writes some elements twice"},
		{"unary: invalid op", func() error { return ApplyUnaryView(elem.UnaryOp(99), v23, v23) }, ErrOp, "invalid UnaryOp(99)"},
		{"unary: integers", func() error { return ApplyUnaryView(elem.OpSqrt, ViewOf(i6, S(6)), ViewOf(i6, S(6))) }, ErrOp,
			"sqrt is not defined on int32"},
		{"unary: shapes", func() error { return ApplyUnaryView(elem.OpExp, v23, ViewOf(f6[:2], S(2))) }, ErrIncompatible,
			"a (2) does not broadcast to dst's shape (2,3)"},
		{"ternary: inputs", func() error {
			return ApplyTernaryView(elem.OpFMA, v23, ViewOf(f6, S(2, 3)), ViewOf(f6[:2], S(2)), ViewOf(f6[:1], S()))
		}, ErrIncompatible, "size 3 of operand 0 must match size 2 of operand 1 at dimension 1"},
		{"ternary: c inside dst", func() error {
			return ApplyTernaryView(elem.OpClamp, v23, ViewOf(f6, S(2, 3)), ViewOf(f6[:1], S()), ViewOf(d6[3:], S(3)))
		}, ErrOverlap, "shares elements with c (shape (3), strides [1]) without being exactly c"},
		{"compare: invalid op", func() error { return CompareView(elem.CompareOp(9), ViewOf(m, S(2, 3)), v23, v23) }, ErrOp,
			"invalid CompareOp(9)"},
		{"compare: bool dst over a's floats", func() error { return CompareView(elem.OpLt, ViewOf(bits[:6], S(2, 3)), v23, ViewOf(f6, S(2, 3))) },
			ErrOverlap, "dst (shape (2,3), strides [3 1]) shares elements with a"},
		{"compare: shapes", func() error {
			return CompareView(elem.OpEq, ViewOf(m, S(2, 3)), ViewOf(f6, S(3, 2)), ViewOf(f6[:2], S(2)))
		},
			ErrIncompatible, "a (3,2) and b (2) do not broadcast to dst's shape (2,3): their broadcast shape is (3,2)"},
		{"select: cond", func() error {
			return SelectView(v23, ViewOf(m[:2], S(2, 1, 1)), ViewOf(f6, S(2, 3)), ViewOf(f6[:1], S()))
		},
			ErrIncompatible, "cond (2,1,1), a (2,3) and b () do not broadcast to dst's shape (2,3): their broadcast shape is (2,2,3)"},
		{"convert: in place between sizes", func() error {
			return ConvertView(ViewOf(elemtype.Recast[float64](d6), S(3)), ViewOf(d6[:3], S(3)))
		}, ErrOverlap, "shares elements with src"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for i := range d6 {
				d6[i] = 7
			}
			err := c.call()
			requireErr(t, err, errs(c.sentinel), c.msg)
			require.Equal(t, []float32{7, 7, 7, 7, 7, 7}, d6, "written on error")
		})
	}
	require.NoError(t, ConvertView(ViewOf(elemtype.Recast[int32](d6), S(6)), ViewOf(d6, S(6))), "in place, one size")
	require.Equal(t, []int32{7, 7, 7, 7, 7, 7}, elemtype.Recast[int32](d6))
}

// permuted returns v with its dims in the order axes: NumPy's
// v.transpose(axes).
func permuted[T Element](v View[T], axes ...int) View[T] {
	p := View[T]{Data: v.Data, Shape: make(Shape, len(axes)), Strides: make([]int, len(axes))}
	for i, a := range axes {
		p.Shape[i], p.Strides[i] = v.Shape[a], v.Strides[a]
	}
	return p
}

// testCopyForms copies the layouts the transposition paths are for, at
// sizes around the kernels' squares, their narrow widths and the tiles:
// images HWC to CHW and back with 1 to 5 channels, NCHW to NHWC, matrices
// transposed (into a transposed dst too), reversed; and fills a column and
// a transposed block.
func testCopyForms[T Element](t *testing.T) {
	rng := rand.New(rand.NewPCG(81, 82))
	fill := randomElems[T](rng)
	check := func(name string, dst, src View[T]) { checkCopy(t, name, dst, src) }
	images := [][2]int{{1, 1}, {1, 9}, {3, 17}, {17, 33}, {8, 64}, {65, 31}, {2, 1000}} // the largest last: -short drops them
	matrices := [][2]int{{1, 1}, {3, 5}, {33, 31}, {64, 65}, {1100, 3}, {257, 129}, {40, 1100}}
	for _, hw := range images[:testkit.Sweep(7, 6, 7)] {
		h, w := hw[0], hw[1]
		for c := 1; c <= 5; c++ {
			hwc := ViewOf(fill(h*w*c), S(h, w, c))
			chw := ViewOf(fill(c*h*w), S(c, h, w))
			check(fmt.Sprintf("HWC to CHW %dx%dx%d", h, w, c), chw, permuted(hwc, 2, 0, 1))
			check(fmt.Sprintf("CHW to HWC %dx%dx%d", h, w, c), permuted(hwc, 2, 0, 1), chw)
			nchw := ViewOf(fill(2*c*h*w), S(2, c, h, w))
			nhwc := ViewOf(fill(2*h*w*c), S(2, h, w, c))
			check(fmt.Sprintf("NCHW to NHWC 2x%dx%dx%d", c, h, w), permuted(nhwc, 0, 3, 1, 2), nchw)
		}
	}
	for _, mn := range matrices[:testkit.Sweep(7, 5, 7)] {
		m, n := mn[0], mn[1]
		a := ViewOf(fill(m*n), S(n, m)).Transposed()
		check(fmt.Sprintf("transposed %dx%d", m, n), ViewOf(fill(m*n), S(m, n)), a)
		check(fmt.Sprintf("into a transposed dst %dx%d", m, n), ViewOf(fill(m*n), S(n, m)).Transposed(), ViewOf(fill(m*n), S(m, n)))
		rev := View[T]{Data: fill(m * n), Shape: S(m, n), Strides: []int{-1, -m}}
		check(fmt.Sprintf("transposed, reversed %dx%d", m, n), ViewOf(fill(m*n), S(m, n)), rev)
		big := fill((m + 2) * (n + 3))
		checkFill(t, View[T]{Data: big[1 : 1+(m-1)*(n+3)+1], Shape: S(m), Strides: []int{n + 3}}, fill(1)[0]) // a column
		checkFill(t, View[T]{Data: big, Shape: S(n, m), Strides: []int{1, n + 3}}, fill(1)[0])                // a transposed block
	}
}

// TestBandRows pins the band heights of transposing moves under AMD's rule
// and the others', and checks a float32 transposition whose dst rows all
// share an L1 set under both.
func TestBandRows(t *testing.T) {
	defer func(v bool) { amdBands = v }(amdBands)
	for _, c := range []struct {
		amd                  bool
		rowBytes, size, want int
	}{
		{false, 4096, 4, 8}, {true, 4096, 4, 16}, {true, 4096, 1, 8}, {true, 4096, 2, 8}, {true, 4096, 8, 8},
		{false, 4100, 4, 16}, {true, 4100, 4, 16}, {false, 8192, 4, 8}, {true, 8192, 4, 16},
		{false, 2048, 4, 16}, {false, -4096, 4, 8}, {true, 4096, 16, 4},
	} {
		amdBands = c.amd
		assert.Equal(t, c.want, bandRows(c.rowBytes, c.size), "AMD %v, rows %d bytes apart, %d-byte elements", c.amd, c.rowBytes, c.size)
	}
	const m, n = 1024, 40 // dst: n rows of m float32, 4 KiB apart
	src := make([]float32, m*n)
	for i := range src {
		src[i] = float32(i)
	}
	for _, amd := range []bool{false, true} {
		amdBands = amd
		dst := make([]float32, m*n)
		require.NoError(t, CopyView(ViewOf(dst, Shape{n, m}), ViewOf(src, Shape{m, n}).Transposed()))
		for r := range n {
			for j := range m {
				require.Equal(t, src[j*n+r], dst[r*m+j], "AMD %v: dst (%d, %d)", amd, r, j)
			}
		}
	}
}
