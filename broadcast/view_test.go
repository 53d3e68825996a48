package broadcast

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// naiveView is the N-d reference loop with strides: it returns dst.Data
// after dst = a op b, computed one element at a time by the generic
// kernel's scalar expression on a copy of dst's data (when dst is exactly
// an input view, the input is read from the copy too, as in place).
func naiveView[T elem.Number](op elem.Op, dst, a, b View[T]) []T {
	out := slices.Clone(dst.Data)
	vs := []View[T]{dst, a, b}
	var bases [3]int
	var strides [3][]int
	for k, v := range vs {
		bases[k], _ = v.origin(nameA)
		strides[k] = make([]int, len(dst.Shape))
		for d := range dst.Shape {
			if i := d - (len(dst.Shape) - len(v.Shape)); i >= 0 && v.Shape[i] != 1 {
				strides[k][d] = v.Strides[i]
			}
		}
	}
	src := [3][]T{out, a.Data, b.Data}
	for k := 1; k < 3; k++ {
		if sameView(dst, vs[k]) {
			src[k] = out
		}
	}
	testkit.EachIndex(dst.Shape, func(idx []int) {
		var at [3]int
		for k := range at {
			at[k] = bases[k] + testkit.Offset(idx, strides[k])
		}
		kernel.RowVV(kernel.Op(op), out[at[0]:at[0]+1], src[1][at[1]:at[1]+1], src[2][at[2]:at[2]+1])
	})
	return out
}

func sameView[T Element](x, y View[T]) bool {
	return len(x.Data) > 0 && len(y.Data) > 0 && &x.Data[0] == &y.Data[0] &&
		slices.Equal(x.Shape, y.Shape) && slices.Equal(x.Strides, y.Strides)
}

// randomView lays out shape s in fresh random numbers (see randomLayout).
func randomView[T elem.Number](rng *rand.Rand, s Shape, repeat bool) View[T] {
	return randomLayout(rng, s, repeat, func(n int) []T { return testkit.RandomNumbers[T](rng, n) })
}

// randomLayout lays out shape s in data from fill: the dims nested in a
// random order, some with gaps, some reversed, at a random offset in the
// data with slack after it. An input (repeat) may also repeat an element
// along a dim (stride 0).
func randomLayout[T Element](rng *rand.Rand, s Shape, repeat bool, fill func(n int) []T) View[T] {
	v := View[T]{Shape: slices.Clone(s), Strides: make([]int, len(s))}
	reach := 1
	for _, d := range rng.Perm(len(s)) {
		st := reach * (1 + rng.IntN(4)/3) // every fourth dim has a gap
		switch {
		case repeat && rng.IntN(6) == 0:
			st = 0
		case rng.IntN(4) == 0:
			st = -st
		}
		v.Strides[d] = st
		reach += max(s[d]-1, 0) * abs(st)
	}
	if slices.Contains(s, 0) {
		reach = 0
	}
	off := rng.IntN(5)
	data := fill(off + reach + rng.IntN(5))
	v.Data = data[off : off+reach]
	return v
}

func TestApplyViewMatchesNaive(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", testViews[float32])
		t.Run("float64", testViews[float64])
		t.Run("int8", testViews[int8])
		t.Run("uint16", testViews[uint16])
		t.Run("int32", testViews[int32])
		t.Run("int64", testViews[int64])
	})
}

func testViews[T elem.Number](t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for i := range testkit.Sweep(300, 300, 60) {
		as, bs := randomPair(rng)
		out, err := Numpy(as, bs)
		require.NoError(t, err)
		if elements(out) > 1<<12 { // the naive loop is slow: small nests, many of them
			continue
		}
		a, b := randomView[T](rng, as, true), randomView[T](rng, bs, true)
		if i%7 == 3 { // a dst the inputs broadcast to, beyond their broadcast
			out = append(S(1+i%3), out...)
		}
		dst := randomView[T](rng, out, false)
		if i%5 == 0 && out.Equal(as) { // in place: dst exactly a
			dst = View[T]{Data: a.Data, Shape: a.Shape, Strides: slices.Clone(a.Strides)}
			for d, st := range dst.Strides {
				if st == 0 && dst.Shape[d] > 1 {
					dst = randomView[T](rng, out, false)
					break
				}
			}
		}
		checkView(t, elem.Ops(), dst, a, b)
	}
}

// checkView runs every op on the views and compares dst's data with the
// naive loop's, bit for bit, elements outside the view included.
func checkView[T elem.Number](t *testing.T, ops []elem.Op, dst, a, b View[T]) {
	t.Helper()
	orig := slices.Clone(dst.Data)
	for _, op := range ops {
		copy(dst.Data, orig)
		what := fmt.Sprintf("%T %v: dst %v %v, a %v %v, b %v %v", T(0), op, dst.Shape, dst.Strides, a.Shape, a.Strides, b.Shape, b.Strides)
		if !elem.DefinedOn[T](op) {
			require.ErrorIs(t, ApplyView(op, dst, a, b), ErrOp, what)
			testkit.RequireSameBits(t, orig, dst.Data, what+": written on error")
			continue
		}
		want := naiveView(op, dst, a, b)
		require.NoError(t, ApplyView(op, dst, a, b), what)
		testkit.RequireSameBits(t, want, dst.Data, what)
	}
}

// TestViewForms covers the workloads views are for, at sizes around the
// tile sizes: a transposed input, column views, sub-matrices, reversed
// dims, a scalar view.
func TestViewForms(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(23, 24))
		for _, mn := range [][2]int{{1, 1}, {3, 5}, {33, 31}, {64, 65}, {40, 1100}, {1100, 3}} {
			m, n := mn[0], mn[1]
			big := testkit.RandomNumbers[float32](rng, (m+2)*(n+3)+(n+3)*(m+2))
			sub := View[float32]{Data: big[n+3+1:], Shape: S(m, n), Strides: []int{n + 3, 1}}
			sub.Data = sub.Data[:(m-1)*(n+3)+n]
			bt := ViewOf(testkit.RandomNumbers[float32](rng, m*n), S(n, m)).Transposed()
			row := ViewOf(testkit.RandomNumbers[float32](rng, n), S(n))
			col := View[float32]{Data: big, Shape: S(m, 1), Strides: []int{n + 3, 1}}
			col.Data = col.Data[:(m-1)*(n+3)+1]
			dst := ViewOf(make([]float32, m*n), S(m, n))
			rev := View[float32]{Data: sub.Data, Shape: S(m, n), Strides: []int{n + 3, -1}}
			for _, c := range []struct {
				name      string
				dst, a, b View[float32]
			}{
				{"a + b.T", dst, sub, bt},
				{"b.T + a", dst, bt, sub},
				{"bias on a sub-view, in place", sub, sub, row},
				{"column broadcast from a column view", dst, sub, col},
				{"reversed rows", dst, rev, row},
				{"into a transposed dst", ViewOf(make([]float32, m*n), S(n, m)).Transposed(), sub, bt},
				{"scalar", dst, sub, ViewOf([]float32{3}, S())},
			} {
				t.Run(fmt.Sprintf("%s %dx%d", c.name, m, n), func(t *testing.T) {
					checkView(t, []elem.Op{elem.OpSub, elem.OpMin}, c.dst, c.a, c.b)
				})
			}
			colDst := View[float32]{Data: big[2:], Shape: S(m), Strides: []int{n + 3}}
			colDst.Data = colDst.Data[:(m-1)*(n+3)+1]
			checkView(t, []elem.Op{elem.OpMul}, colDst, colDst, ViewOf([]float32{2}, S())) // a column scaled in place
		}
	})
}

func TestViewErrors(t *testing.T) {
	d6 := make([]float32, 6)
	for _, c := range []struct {
		name      string
		dst, a, b View[float32]
		sentinel  error
		msg       string
	}{
		{"strides count", ViewOf(d6, S(2, 3)), View[float32]{d6, S(2, 3), []int{3}}, ViewOf(d6[:3], S(3)), ErrView,
			"a: shape (2,3) has 2 dims but 1 strides"},
		{"outside data", ViewOf(d6, S(2, 3)), View[float32]{d6, S(2, 3), []int{4, 1}}, ViewOf(make([]float32, 3), S(3)), ErrView,
			"dim 1 (size 3, stride 1): it reaches index 6 of Data, which has 6 elements"},
		{"reversed outside data", ViewOf(d6, S(2, 3)), ViewOf(make([]float32, 6), S(2, 3)), View[float32]{d6[:2], S(3), []int{-1}}, ErrView,
			"b with shape (3) and strides [-1] does not fit in its data: dim 0"},
		{"dst repeats", View[float32]{d6, S(2, 3), []int{0, 1}}, ViewOf(make([]float32, 6), S(2, 3)), ViewOf(make([]float32, 3), S(3)), ErrOverlap,
			"dst with shape (2,3) and strides [0 1] writes some elements twice: indices (0,0) and (1,0) address the same element"},
		{"shapes", ViewOf(d6, S(2, 3)), ViewOf(make([]float32, 6), S(3, 2)), ViewOf(make([]float32, 2), S(2)), ErrIncompatible,
			"a (3,2) and b (2) do not broadcast to dst's shape (2,3): their broadcast shape is (3,2)"},
		{"inputs", ViewOf(d6, S(2, 3)), ViewOf(make([]float32, 6), S(2, 3)), ViewOf(make([]float32, 2), S(2)), ErrIncompatible,
			"size 3 of a must match size 2 of b at dimension 1"},
		{"partial overlap", View[float32]{d6[1:], S(5), []int{1}}, ViewOf(d6[:5], S(5)), ViewOf(make([]float32, 5), S(5)), ErrOverlap,
			"dst (shape (5), strides [1]) shares elements with a"},
		{"broadcast input inside dst", ViewOf(d6, S(2, 3)), ViewOf(make([]float32, 6), S(2, 3)), ViewOf(d6[3:], S(3)), ErrOverlap,
			"shares elements with b"},
		{"same elements, other order", ViewOf(d6, S(2, 3)), View[float32]{d6, S(2, 3), []int{1, 2}}, ViewOf(make([]float32, 3), S(3)), ErrOverlap,
			"shares elements with a"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for i := range d6 {
				d6[i] = 7
			}
			err := ApplyView(elem.OpAdd, c.dst, c.a, c.b)
			require.ErrorIs(t, err, c.sentinel)
			require.ErrorContains(t, err, c.msg)
			require.Equal(t, []float32{7, 7, 7, 7, 7, 7}, d6, "written on error")
		})
	}
}

// TestViewOverlap: interleaved views of one matrix that share no element
// run; so does dst exactly an input.
func TestViewOverlap(t *testing.T) {
	m := []float32{1, 2, 3, 4, 5, 6, 7, 8} // 2 x 4
	even := View[float32]{m, S(2, 2), []int{4, 2}}
	odd := View[float32]{m[1:], S(2, 2), []int{4, 2}}
	require.NoError(t, ApplyView(elem.OpAdd, odd, even, ViewOf([]float32{10}, S())))
	require.Equal(t, []float32{1, 11, 3, 13, 5, 15, 7, 17}, m)
	require.NoError(t, ApplyView(elem.OpMul, even, even, odd))
	require.Equal(t, []float32{11, 11, 39, 13, 75, 15, 119, 17}, m)
}

// TestViewDataHoldsEveryElement: a view that addresses an element outside
// its Data, rank 0 included (one element, over empty, nil or zero-capacity
// Data), is an error wrapping ErrView, as dst or as either input, and
// nothing is written; a view of no element needs no data at all.
func TestViewDataHoldsEveryElement(t *testing.T) {
	buf := []float64{10, 20, 30, 40}
	one := ViewOf([]float64{1}, S())
	bad := map[string]View[float64]{
		"rank 0 over an empty slice past the end": {Data: buf[4:4], Shape: S()},
		"rank 0 over nil Data":                    {Shape: S()},
		"rank 0 over zero capacity":               {Data: buf[4:4:4], Shape: S()},
		"rank 1 over nil Data":                    {Shape: S(2), Strides: []int{1}},
		"size-1 dims over empty Data":             {Data: buf[:0], Shape: S(1, 1), Strides: []int{5, 1}},
	}
	for name, v := range bad {
		t.Run(name, func(t *testing.T) {
			requireErr(t, v.Validate(), errs(ErrView), "Data is empty")
			out := ViewOf(make([]float64, elements(v.Shape)), slices.Clone(v.Shape))
			for k, views := range [][3]View[float64]{{v, one, one}, {out, v, one}, {out, one, v}} {
				err := ApplyView(elem.OpAdd, views[0], views[1], views[2])
				requireErr(t, err, errs(ErrView), [...]string{"dst", "a", "b"}[k]+" with shape "+v.Shape.String())
			}
			require.Equal(t, []float64{10, 20, 30, 40}, buf, "written on error")
		})
	}
	empty := View[float64]{Shape: S(0, 3), Strides: []int{3, 1}}
	require.NoError(t, empty.Validate())
	require.NoError(t, ApplyView(elem.OpAdd, empty, empty, ViewOf([]float64{1, 2, 3}, S(3))))
}

// TestViewDstDistinct: dst must address each element once, decided
// exactly: named layouts, interleaved ones such as (3,2) with strides (2,3)
// and empty ones included, then every kind of layout of up to three dims of
// sizes 0-3 and strides -4..4 against a count of the offsets.
func TestViewDstDistinct(t *testing.T) {
	for _, c := range []struct {
		shape    Shape
		strides  []int
		distinct bool
	}{
		{S(3, 2), []int{2, 3}, true},
		{S(2, 3), []int{3, -2}, true},
		{S(0, 2), []int{0, 0}, true},
		{S(3, 0), []int{1, 1}, true},
		{S(5, 7), []int{7, 5}, true},
		{S(2, 2, 3), []int{1, 12, 4}, true}, // interleaved under a dim that steps past them
		{S(2, 2), []int{1, 1}, false},
		{S(3, 2), []int{2, 2}, false},
		{S(2, 3), []int{0, 1}, false},
		{S(4, 4), []int{1, 2}, false}, // more elements than offsets
		{S(5, 3), []int{2, 3}, false}, // 3*2+0*3 = 0*2+2*3
	} {
		what := fmt.Sprintf("shape %v strides %v", c.shape, c.strides)
		require.Equal(t, c.distinct, checkDistinct(t, c.shape, c.strides), what)
	}
	rng := rand.New(rand.NewPCG(25, 26))
	for range 5000 {
		rank := 1 + rng.IntN(3)
		shape, strides := make(Shape, rank), make([]int, rank)
		for d := range rank {
			shape[d], strides[d] = rng.IntN(4), rng.IntN(9)-4
		}
		checkDistinct(t, shape, strides)
	}
}

// checkDistinct runs dst = 1 + 2 into a view of the layout over data that
// just holds it, and requires success, with every addressed element
// written, if the offsets are distinct, and an error wrapping ErrOverlap
// with nothing written otherwise; it returns whether they are.
func checkDistinct(t *testing.T, shape Shape, strides []int) bool {
	t.Helper()
	what := fmt.Sprintf("shape %v strides %v", shape, strides)
	dst := View[float32]{Shape: shape, Strides: strides}
	reach, lo := 0, 0
	for d, n := range shape {
		reach += max(n-1, 0) * abs(strides[d])
		if strides[d] < 0 {
			lo += max(n-1, 0) * strides[d]
		}
	}
	dst.Data = make([]float32, reach+1)
	seen, distinct := map[int]bool{}, true
	testkit.EachIndex(shape, func(idx []int) {
		at := testkit.Offset(idx, strides) - lo
		distinct = distinct && !seen[at]
		seen[at] = true
	})
	one, two := ViewOf([]float32{1}, S()), ViewOf([]float32{2}, S())
	err := ApplyView(elem.OpAdd, dst, one, two)
	if !distinct {
		requireErr(t, err, errs(ErrOverlap), "writes some elements twice")
		require.Equal(t, make([]float32, reach+1), dst.Data, "%s: written on error", what)
		return false
	}
	require.NoError(t, err, what)
	for i, x := range dst.Data {
		require.Equal(t, map[bool]float32{true: 3}[seen[i]], x, "%s: element %d", what, i)
	}
	return true
}

// TestViewExactCheckBound: interleaved dims reaching over more than
// maxExactExtent places are not walked: more elements than places repeat
// one, fewer are refused undecided; below the bound they are walked, the
// strides' common factor divided out.
func TestViewExactCheckBound(t *testing.T) {
	for _, c := range []struct {
		strides []int
		msg     string
	}{
		{[]int{1 << 25, 1<<25 + 1}, "not checked"},
		{[]int{1 << 20, 1<<20 + 1}, ""},
		{[]int{3 << (bits.UintSize - 24), 1 << (bits.UintSize - 23)}, ""}, // 3 << 40, 1 << 41 on 64-bit
		{[]int{2, 0}, "indices (0,0) and (0,1) address the same element"},
	} {
		dst := operandOf(nameDst, View[int8]{Shape: S(3, 2), Strides: c.strides})
		err := dst.distinct()
		if c.msg == "" {
			require.NoError(t, err, "strides %v", c.strides)
			continue
		}
		requireErr(t, err, errs(ErrOverlap), c.msg)
	}
	dst := operandOf(nameDst, View[int8]{Shape: S(1<<13, 1<<13, 2), Strides: []int{1 << 13, 1, 1}})
	err := dst.distinct()
	requireErr(t, err, errs(ErrOverlap), "134217728 of its elements lie on 67108865 places")
}

// TestViewDstShape: as NumPy's out=, dst may have any shape the inputs
// broadcast to (extra leading dims, sizes where both inputs have 1), and no
// other.
func TestViewDstShape(t *testing.T) {
	a, b := ViewOf([]float32{1, 2, 3}, S(3)), ViewOf([]float32{10}, S())
	for _, c := range []struct {
		dst  Shape
		want []float32
	}{
		{S(3), []float32{11, 12, 13}},
		{S(1, 3), []float32{11, 12, 13}},
		{S(2, 3), []float32{11, 12, 13, 11, 12, 13}},
		{S(2, 1, 3), []float32{11, 12, 13, 11, 12, 13}},
		{S(0, 3), []float32{}},
	} {
		dst := ViewOf(make([]float32, elements(c.dst)), c.dst)
		require.NoError(t, ApplyView(elem.OpAdd, dst, a, b), "dst %v", c.dst)
		require.Equal(t, c.want, dst.Data, "dst %v", c.dst)
	}
	col := ViewOf([]float32{1, 2}, S(2, 1))
	dst := ViewOf(make([]float32, 6), S(2, 3))
	require.NoError(t, ApplyView(elem.OpMul, dst, col, b))
	require.Equal(t, []float32{10, 10, 10, 20, 20, 20}, dst.Data)
	for _, bad := range []Shape{S(), S(1), S(3, 1), S(2, 3, 2), S(4), S(3, 0)} {
		d := ViewOf(make([]float32, elements(bad)), bad)
		requireErr(t, ApplyView(elem.OpAdd, d, a, b), errs(ErrIncompatible), "to dst's shape "+bad.String())
	}
}

// TestViewsFormNoPointerOutside runs the strided forms (a column scaled in
// place, forwards and reversed; a + b.T; every dim reversed; a transposed
// dst; the README's column example) on operands that fill their own
// arrays, under every implementation: under -race, checkptr kills the test
// if a gather, scatter or transposition forms a pointer past an array's end
// or before its start, as copyStrided once did.
func TestViewsFormNoPointerOutside(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", formsInOwnArrays[float32])
		t.Run("float64", formsInOwnArrays[float64])
	})
}

func formsInOwnArrays[T elem.Number](t *testing.T) {
	const m, n = 4, 6 // 24 elements: 96 or 192 bytes, size classes
	fill := func(x []T) []T {
		for i := range x {
			x[i] = T(i%7 + 1)
		}
		return x
	}
	own := func() []T { return fill(testkit.HeapArray[T](m * n)) }
	scale := ViewOf([]T{3}, S())
	col := func(j int, stride int) View[T] {
		return View[T]{Data: own()[j : j+(m-1)*n+1], Shape: S(m), Strides: []int{stride}}
	}
	a := ViewOf(own(), S(m, n))
	reversed := View[T]{Data: own(), Shape: S(m, n), Strides: []int{-n, -1}}
	bt := ViewOf(own(), S(n, m)).Transposed()
	for _, c := range []struct {
		name      string
		dst, a, b View[T]
	}{
		{"first column, in place", col(0, n), col(0, n), scale},
		{"last column, in place", col(n-1, n), col(n-1, n), scale},
		{"last column reversed, in place", col(n-1, -n), col(n-1, -n), scale},
		{"a + b.T", ViewOf(own(), S(m, n)), a, bt},
		{"b.T - a", ViewOf(own(), S(m, n)), bt, a},
		{"every dim reversed", ViewOf(own(), S(m, n)), reversed, bt},
		{"into a transposed dst", ViewOf(own(), S(n, m)).Transposed(), a, reversed},
		{"into a reversed dst", View[T]{Data: own(), Shape: S(m, n), Strides: []int{-n, -1}}, a, scale},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkView(t, []elem.Op{elem.OpSub, elem.OpMax}, c.dst, c.a, c.b)
		})
	}
	t.Run("README column example", func(t *testing.T) {
		// A column of a 3 x 4 matrix (stride 4) scaled in place, its view
		// ending at the matrix's last row, as ExampleView and the gonum
		// example's d.ColView(1) do.
		mat := testkit.HeapArray[T](12)
		copy(mat, []T{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
		c := View[T]{Data: mat[1:10], Shape: S(3), Strides: []int{4}}
		require.NoError(t, ApplyView(elem.OpMul, c, c, ViewOf([]T{10}, S())))
		require.Equal(t, []T{1, 20, 3, 4, 5, 60, 7, 8, 9, 100, 11, 12}, mat)
	})
}
