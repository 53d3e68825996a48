package elem_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/testkit"
)

// TestIntegerEdgeCases pins the documented integer semantics of the ops
// that began on floats: two's-complement wrap-around for Neg and Abs,
// unsigned order for the unsigned types, hi winning in Clamp.
func TestIntegerEdgeCases(t *testing.T) {
	tests := []struct {
		name      string
		got, want any
	}{
		{"Abs int8", run1(elem.Abs[int8], []int8{math.MinInt8, -1, 0, 5, math.MaxInt8}), []int8{math.MinInt8, 1, 0, 5, math.MaxInt8}},
		{"Abs int64", run1(elem.Abs[int64], []int64{math.MinInt64, -7}), []int64{math.MinInt64, 7}},
		{"Abs uint8", run1(elem.Abs[uint8], []uint8{0, 200, 255}), []uint8{0, 200, 255}},
		{"Neg int16", run1(elem.Neg[int16], []int16{math.MinInt16, 1, 0}), []int16{math.MinInt16, -1, 0}},
		{"Neg uint8", run1(elem.Neg[uint8], []uint8{1, 0, 255}), []uint8{255, 0, 1}},
		{"Lt uint8", cmp(elem.Lt[uint8], []uint8{200, 100, 7}, []uint8{100, 200, 7}), []bool{false, true, false}},
		{"Lt int8", cmp(elem.Lt[int8], []int8{-56, 100, 7}, []int8{100, -56, 7}), []bool{true, false, false}},
		{"Ge uint64", cmp(elem.Ge[uint64], []uint64{1 << 63, 1, 5}, []uint64{1, 1 << 63, 5}), []bool{true, false, true}},
		{"Ne uint32", cmp(elem.Ne[uint32], []uint32{math.MaxUint32, 3}, []uint32{math.MaxUint32, 4}), []bool{false, true}},
		{"Clamp int32", clamp([]int32{-5, 5, 50}, 0, 10), []int32{0, 5, 10}},
		{"Clamp lo > hi", clamp([]int32{-5, 5, 50}, 10, 0), []int32{0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { require.Equal(t, tt.want, tt.got) })
	}
}

func run1[T elem.Number](f func(dst, a []T), a []T) []T {
	dst := make([]T, len(a))
	f(dst, a)
	return dst
}

func cmp[T elem.Number](f func(dst []bool, a, b []T), a, b []T) []bool {
	dst := make([]bool, len(a))
	f(dst, a, b)
	return dst
}

func clamp[T elem.Number](a []T, lo, hi T) []T {
	dst := make([]T, len(a))
	elem.Clamp(dst, a, lo, hi)
	return dst
}

// TestIntegerFamilies runs every form of the integer comparisons,
// selections, Clamp, Abs and Neg, named and op-valued, against Go's
// operators element by element, at lengths below and above the short-slice
// limit, on every element type and implementation.
func TestIntegerFamilies(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("int8", testIntegerFamilies[int8])
		t.Run("int16", testIntegerFamilies[int16])
		t.Run("int32", testIntegerFamilies[int32])
		t.Run("int64", testIntegerFamilies[int64])
		t.Run("uint8", testIntegerFamilies[uint8])
		t.Run("uint16", testIntegerFamilies[uint16])
		t.Run("uint32", testIntegerFamilies[uint32])
		t.Run("uint64", testIntegerFamilies[uint64])
	})
}

func testIntegerFamilies[T elem.Integer](t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for _, n := range []int{3, 17, 100, 1000} {
		a, b := testkit.RandomInts[T](rng, n), testkit.RandomInts[T](rng, n)
		copy(b[:n/3], a) // equal pairs too
		s, lo, hi := a[n/2], min(a[0], b[0]), max(a[0], b[0])
		cond := make([]bool, n)
		for i := range cond {
			cond[i] = rng.IntN(2) == 0
		}
		compares := []struct {
			op    elem.CompareOp
			named func(dst []bool, a, b []T)
			vs    func(dst []bool, a []T, s T)
			want  func(x, y T) bool
		}{
			{elem.OpEq, elem.Eq[T], elem.EqScalar[T], func(x, y T) bool { return x == y }},
			{elem.OpNe, elem.Ne[T], elem.NeScalar[T], func(x, y T) bool { return x != y }},
			{elem.OpLt, elem.Lt[T], elem.LtScalar[T], func(x, y T) bool { return x < y }},
			{elem.OpLe, elem.Le[T], elem.LeScalar[T], func(x, y T) bool { return x <= y }},
			{elem.OpGt, elem.Gt[T], elem.GtScalar[T], func(x, y T) bool { return x > y }},
			{elem.OpGe, elem.Ge[T], elem.GeScalar[T], func(x, y T) bool { return x >= y }},
		}
		for _, c := range compares {
			what := fmt.Sprintf("%v n=%d", c.op, n)
			want, wantS := make([]bool, n), make([]bool, n)
			for i := range want {
				want[i], wantS[i] = c.want(a[i], b[i]), c.want(a[i], s)
			}
			got := make([]bool, n)
			c.named(got, a, b)
			require.Equal(t, want, got, what)
			elem.Compare(c.op, got, a, b)
			require.Equal(t, want, got, what+" op-valued")
			c.vs(got, a, s)
			require.Equal(t, wantS, got, what+" scalar")
			elem.CompareScalar(c.op, got, a, s)
			require.Equal(t, wantS, got, what+" scalar op-valued")
		}
		want := make([]T, n)
		check := func(what string, f func(dst []T), ref func(i int) T) {
			for i := range want {
				want[i] = ref(i)
			}
			got := make([]T, n)
			f(got)
			require.Equal(t, want, got, "%s n=%d", what, n)
		}
		pick := func(c bool, x, y T) T {
			if c {
				return x
			}
			return y
		}
		check("Select", func(d []T) { elem.Select(d, cond, a, b) }, func(i int) T { return pick(cond[i], a[i], b[i]) })
		check("SelectScalar", func(d []T) { elem.SelectScalar(d, cond, a, s) }, func(i int) T { return pick(cond[i], a[i], s) })
		check("ScalarSelect", func(d []T) { elem.ScalarSelect(d, cond, s, b) }, func(i int) T { return pick(cond[i], s, b[i]) })
		check("Clamp", func(d []T) { elem.Clamp(d, a, lo, hi) }, func(i int) T { return min(max(a[i], lo), hi) })
		check("ApplyTernary clamp", func(d []T) { elem.ApplyTernary(elem.OpClamp, d, a, b, a) }, func(i int) T { return min(max(a[i], b[i]), a[i]) })
		check("Neg", func(d []T) { elem.Neg(d, a) }, func(i int) T { return -a[i] })
		check("Abs", func(d []T) { elem.Abs(d, a) }, func(i int) T { return pick(a[i] < 0, -a[i], a[i]) })
		check("ApplyUnary abs", func(d []T) { elem.ApplyUnary(elem.OpAbs, d, a) }, func(i int) T { return pick(a[i] < 0, -a[i], a[i]) })
	}
}

// TestIntegerUndefinedOps checks that the op-valued calls refuse, by a
// panic naming the op, the ops defined on floats alone.
func TestIntegerUndefinedOps(t *testing.T) {
	x := []int32{1, 2, 3}
	testkit.RequirePanicContains(t, "sqrt is not defined on integer types", func() { elem.ApplyUnary(elem.OpSqrt, x, x) })
	testkit.RequirePanicContains(t, "fma is not defined on integer types", func() { elem.ApplyTernary(elem.OpFMA, x, x, x, x) })
	testkit.RequirePanicContains(t, "exp is not defined on integer types", func() { elem.ApplyUnary2D(elem.OpExp, 1, 3, x, 3, x, 3, 1) })
	require.Equal(t, []int32{1, 2, 3}, x, "nothing written")
	require.False(t, elem.UnaryDefinedOn[int8](elem.OpSqrt))
	require.True(t, elem.UnaryDefinedOn[uint8](elem.OpAbs))
	require.True(t, elem.TernaryDefinedOn[int64](elem.OpClamp))
	require.False(t, elem.TernaryDefinedOn[int64](elem.OpFMA))
}

// Comparisons and selections take integers as they are: no conversion to
// a float type first.
func ExampleGtScalar_integers() {
	volume := []int64{12000, 800, 9000, 45000}
	busy := make([]bool, len(volume))
	elem.GtScalar(busy, volume, 9000)
	capped := make([]int64, len(volume))
	elem.SelectScalar(capped, busy, volume, 0) // the busy volumes, 0 elsewhere
	fmt.Println(busy, capped)

	small := []int8{math.MinInt8, -3, 3}
	elem.Abs(small, small) // two's complement: -(-128) wraps to -128, as in Go
	fmt.Println(small)
	// Output:
	// [true false false true] [12000 0 0 45000]
	// [-128 3 3]
}
