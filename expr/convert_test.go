package expr

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/broadcast"
)

// TestConvertPairs converts between every pair of element types, at the
// root, in the middle of ops of both types, from a leaf, from a scalar and
// a constant, over broadcast and tiled shapes and in blocks of several
// sizes, and compares every bit with elem's calls applied step by step.
func TestConvertPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 3))
	pairsFrom[float32](t, rng)
	pairsFrom[float64](t, rng)
	pairsFrom[int8](t, rng)
	pairsFrom[int16](t, rng)
	pairsFrom[int32](t, rng)
	pairsFrom[int64](t, rng)
	pairsFrom[uint8](t, rng)
	pairsFrom[uint16](t, rng)
	pairsFrom[uint32](t, rng)
	pairsFrom[uint64](t, rng)
}

func pairsFrom[From elem.Number](t *testing.T, rng *rand.Rand) {
	checkPair[float32, From](t, rng)
	checkPair[float64, From](t, rng)
	checkPair[int8, From](t, rng)
	checkPair[int16, From](t, rng)
	checkPair[int32, From](t, rng)
	checkPair[int64, From](t, rng)
	checkPair[uint8, From](t, rng)
	checkPair[uint16, From](t, rng)
	checkPair[uint32, From](t, rng)
	checkPair[uint64, From](t, rng)
}

// convShapes are the shapes of a test: x and r of the source type, z of
// the target type.
var convShapes = []struct {
	x, r, z []int
	tiled   bool
}{
	{x: []int{7, 1, 37}, r: []int{37}, z: []int{5, 1}},       // broadcast every way
	{x: []int{50, 3}, r: []int{3}, z: []int{3}, tiled: true}, // channels last: tiled rows
	{x: []int{1000}, r: []int{}, z: []int{1000}},             // flat
	{x: []int{4, 1}, r: []int{1, 300}, z: []int{4, 300}},     // a column against a row
}

func checkPair[To, From elem.Number](t *testing.T, rng *rand.Rand) {
	name := fmt.Sprintf("%T->%T", From(0), To(0))
	for _, sh := range convShapes {
		x, r, z := Input[From]("x", sh.x...), Input[From]("r", sh.r...), Input[To]("z", sh.z...)
		out, err := broadcast.Numpy(sh.x, sh.r, sh.z)
		require.NoError(t, err)
		xs, rs, zs := convValues[From](rng, size(sh.x)), convValues[From](rng, size(sh.r)), convValues[To](rng, size(sh.z))
		sv, cv := convValues[From](rng, 2), convValues[From](rng, 1)[0]
		ex, er, ez := expand(xs, sh.x, out), expand(rs, sh.r, out), expand(zs, sh.z, out)
		n := len(ex)
		conv := func(a []From) []To {
			d := make([]To, n)
			elem.Convert(d, a)
			return d
		}
		back := func(a []To) []From {
			d := make([]From, n)
			elem.Convert(d, a)
			return d
		}
		fill := func(v From) []From {
			d := make([]From, n)
			for i := range d {
				d[i] = v
			}
			return d
		}
		maxXR := make([]From, n)
		elem.Max(maxXR, ex, er)
		cases := []struct {
			what string
			root Node[To]
			want []To
		}{
			{"root", Convert[To](Max(Max(x, r), Convert[From](z))), conv(maxOf(maxXR, back(ez)))},
			{"middle", Add(Convert[To](Max(x, r)), z), add(conv(maxXR), ez)},
			{"leaf", Mul(z, Convert[To](x)), mul(ez, conv(ex))},
			{"scalar", Max(Sub(Convert[To](Scalar[From]("s")), Convert[To](Add(Scalar[From]("u"), x))), z),
				maxOf(sub(conv(fill(sv[0])), conv(add(fill(sv[1]), ex))), ez)},
			{"constant", Max(Max(Convert[To](Const(cv)), z), Convert[To](x)), maxOf(maxOf(conv(fill(cv)), ez), conv(ex))},
		}
		tiled := false
		for _, c := range cases {
			for _, block := range []int{0, 64, 3 * 37} {
				what := fmt.Sprintf("%s %s %v block %d", name, c.what, sh, block)
				p, err := compile(c.root, block)
				require.NoError(t, err, what)
				tiled = tiled || p.tile > 0
				require.Equal(t, out, broadcast.Shape(p.Shape()), what)
				args := []Binding{Array("x", xs), Array("r", rs), Array("z", zs), Value("s", sv[0]), Value("u", sv[1])}
				args = bindable(p, args)
				got := make([]To, p.Len())
				require.NoError(t, p.Run(got, args...), what)
				requireSameValues(t, c.want, got, what)
				par := make([]To, p.Len())
				require.NoError(t, p.RunParallel(3, par, args...), what)
				requireSameValues(t, c.want, par, what+": RunParallel")
			}
		}
		require.Equal(t, sh.tiled, tiled, "%s %v: tiled", name, sh)
	}
}

// bindable keeps the args that bind an input of p.
func bindable[T elem.Number](p *Plan[T], args []Binding) []Binding {
	var keep []Binding
	for _, a := range args {
		v, _ := p.view(a)
		if _, ok := p.byName[v.name]; ok {
			keep = append(keep, a)
		}
	}
	return keep
}

func add[T elem.Number](a, b []T) []T   { d := make([]T, len(a)); elem.Add(d, a, b); return d }
func sub[T elem.Number](a, b []T) []T   { d := make([]T, len(a)); elem.Sub(d, a, b); return d }
func mul[T elem.Number](a, b []T) []T   { d := make([]T, len(a)); elem.Mul(d, a, b); return d }
func maxOf[T elem.Number](a, b []T) []T { d := make([]T, len(a)); elem.Max(d, a, b); return d }
func size(shape []int) int              { s, _ := broadcast.Shape(shape).Size(); return s }
func requireSameValues[T elem.Number](t *testing.T, want, got []T, what string) {
	t.Helper()
	require.Len(t, got, len(want), what)
	for i := range want {
		if valueBits(want[i]) != valueBits(got[i]) {
			require.Failf(t, "bits differ", "%s: element %d: want %v (%#x), got %v (%#x)", what, i, want[i], valueBits(want[i]), got[i], valueBits(got[i]))
		}
	}
}

// expand returns data of shape broadcast to shape out (NumPy's rule).
func expand[T elem.Number](data []T, shape []int, out broadcast.Shape) []T {
	n, _ := out.Size()
	d := make([]T, n)
	idx := make([]int, len(out))
	for i := range d {
		at, stride := 0, 1
		for k := len(shape) - 1; k >= 0; k-- {
			if shape[k] > 1 {
				at += idx[len(out)-len(shape)+k] * stride
			}
			stride *= shape[k]
		}
		d[i] = data[at]
		for k := len(out) - 1; k >= 0; k-- {
			if idx[k]++; idx[k] < out[k] {
				break
			}
			idx[k] = 0
		}
	}
	return d
}

// convValues returns n values of T: first the special ones (for a float
// NaN, ±Inf, -0, halves, values at and past every integer type's limits;
// for an integer its limits and their neighbours), then random bits.
func convValues[T elem.Number](rng *rand.Rand, n int) []T {
	var special []T
	if isFloat[T]() {
		for _, f := range []float64{math.NaN(), -math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, 0.5, -0.5, 1.5, -1.5, 2.5,
			-0.9, 127, 127.5, 128, -128, -128.9, -129, 255, 255.5, 256, 32767.5, 32768, -32769, 65535.9, 65536, 1 << 31, -1<<31 - 1,
			1 << 32, 1 << 63, -1 << 63, 1 << 64, 1e30, -1e30, math.MaxFloat32, math.MaxFloat64, 5e-324} {
			special = append(special, T(f))
		}
		special = append(special, valueOf[T](valueBits(T(math.NaN()))^1)) // a NaN with another payload
	} else {
		for _, v := range []int64{0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, -32768, 65535, math.MaxInt32, math.MinInt32,
			math.MaxUint32, math.MaxInt64, math.MinInt64} {
			special = append(special, T(v))
		}
	}
	out := make([]T, n)
	for i := range out {
		switch {
		case i < len(special) && n > 2:
			out[i] = special[i]
		case i%2 == 0 && isFloat[T]():
			out[i] = T(rng.NormFloat64() * 1000) // within most integer types' ranges
		default:
			out[i] = valueOf[T](rng.Uint64())
		}
	}
	rng.Shuffle(n, func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}
