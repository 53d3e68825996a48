package expr

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

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
		var v argView
		p.view(a, &v)
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

// celsius is a defined element type.
type celsius float32

// TestConvertErrors compiles and runs plans whose names disagree on their
// element types, or whose Args do not match them.
func TestConvertErrors(t *testing.T) {
	x8 := Convert[float32](Input[uint8]("x", 3))
	for _, c := range []struct {
		what string
		root Node[float32]
		want string
	}{
		{"array of two types", Add(x8, Input[float32]("x", 3)), `input "x" is used with element types uint8 and float32`},
		{"scalar of two types", Add(Convert[float32](Scalar[int32]("s")), Scalar[float32]("s")), `input "s" is used with element types int32 and float32`},
		{"scalar and array", Add(x8, Convert[float32](Scalar[uint8]("x"))), `"x" is used both as a scalar and as an array of shape (3)`},
		{"defined type", Add(x8, Convert[float32](Input[celsius]("c", 3))), `input "c" is of the defined type expr.celsius`},
		{"empty argument", Add(x8, Convert[float32](Node[uint8]{})), "a conversion has an empty Node argument"},
	} {
		_, err := Compile(c.root)
		require.ErrorIs(t, err, ErrInput, c.what)
		require.ErrorContains(t, err, c.want, c.what)
	}

	p, err := Compile(Add(x8, Input[float32]("m", 3)))
	require.NoError(t, err)
	dst := []float32{7, 7, 7}
	x, m := []uint8{1, 2, 3}, []float32{1, 2, 3}
	for _, c := range []struct {
		what string
		args []Binding
		is   error
		want string
	}{
		{"wrong type", []Binding{Array("x", []int8{1, 2, 3}), Array("m", m)}, ErrInput, `input "x" is of element type uint8, bound with an Arg[int8]`},
		{"wrong type, plan's", []Binding{Array("x", []float32{1, 2, 3}), Array("m", m)}, ErrInput, `input "x" is of element type uint8, bound with an Arg[float32]`},
		{"nil Binding", []Binding{Array("x", x), nil}, ErrInput, "argument 1 is a nil Binding"},
		{"missing", []Binding{Array("x", x)}, ErrInput, `missing array input "m"`},
		{"length", []Binding{Array("x", x[:2]), Array("m", m)}, ErrLength, `input "x" has 2 elements`},
	} {
		err := p.Run(dst, c.args...)
		require.ErrorIs(t, err, c.is, c.what)
		require.ErrorContains(t, err, c.want, c.what)
		require.Equal(t, []float32{7, 7, 7}, dst, c.what)
	}

	// dst may be an input of its own element type only.
	q, err := Compile(Convert[int32](Add(Convert[float32](Input[int32]("i", 3)), Convert[float32](Input[float32]("f", 3)))))
	require.NoError(t, err)
	i, f := []int32{1, 2, 3}, []float32{0.5, 0.5, 0.5}
	require.NoError(t, q.Run(i, Array("i", i), Array("f", f)))
	require.Equal(t, []int32{1, 2, 3}, i)
	err = q.Run(unsafe.Slice((*int32)(unsafe.Pointer(&f[0])), 3), Array("i", i), Array("f", f))
	require.ErrorIs(t, err, ErrOverlap)
	require.ErrorContains(t, err, `input "f"`)
}

// TestConvertDefinedType runs a plan of a defined type with inputs of its
// type and of a predeclared one.
func TestConvertDefinedType(t *testing.T) {
	p, err := Compile(Add(Convert[celsius](Input[int16]("x", 2)), Input[celsius]("c", 2)))
	require.NoError(t, err)
	dst := make([]celsius, 2)
	require.NoError(t, p.Run(dst, Array("x", []int16{-3, 300}), Array("c", []celsius{0.5, 1})))
	require.Equal(t, []celsius{-2.5, 301}, dst)
	require.ErrorContains(t, p.Run(dst, Array("x", []int16{1, 2}), Array("c", []float32{0.5, 1})),
		`input "c" is of element type expr.celsius, bound with an Arg[float32]`)
}

// TestConvertChain runs conversions nested in conversions, nodes shared
// across them, and the same conversion twice, and prints them.
func TestConvertChain(t *testing.T) {
	x := Input[uint8]("x", 5, 40)
	f := Convert[float32](x)
	scaled := Mul(f, Scalar[float32]("k"))
	wide := Convert[float64](Add(scaled, f)) // f feeds two ops
	root := Convert[uint16](Add(Sqrt(wide), Convert[float64](Max(scaled, Convert[float32](Input[int64]("y", 40))))))
	require.Equal(t, "uint16((sqrt(float64(((float32(x) * k) + float32(x)))) + float64(max((float32(x) * k), float32(y)))))", root.String())
	rng := rand.New(rand.NewPCG(1, 25))
	xs, ys := convValues[uint8](rng, 200), convValues[int64](rng, 40)
	k := float32(1.7)
	for _, block := range []int{0, 48} {
		p, err := compile(root, block)
		require.NoError(t, err)
		require.Equal(t, []string{"x", "y"}, p.Inputs())
		require.Equal(t, []string{"k"}, p.Scalars())
		got := make([]uint16, 200)
		require.NoError(t, p.Run(got, Array("x", xs), Value("k", k), Array("y", ys)))
		fx, fy := make([]float32, 200), make([]float32, 200)
		elem.Convert(fx, xs)
		elem.Convert(fy, expand(ys, []int{40}, broadcast.Shape{5, 40}))
		sc := make([]float32, 200)
		elem.MulScalar(sc, fx, k)
		w, v := make([]float64, 200), make([]float64, 200)
		elem.Convert(w, add(sc, fx))
		elem.Sqrt(w, w)
		elem.Convert(v, maxOf(sc, fy))
		want := make([]uint16, 200)
		elem.Convert(want, add(w, v))
		requireSameValues(t, want, got, fmt.Sprintf("block %d", block))
	}
}

// TestImagePipeline runs the uint8 image pipeline as one plan against the
// same ops in separate passes, bit for bit, and checks that warm runs
// allocate nothing.
func TestImagePipeline(t *testing.T) {
	const h, w, c = 48, 64, 3
	n := h * w * c
	x := make([]uint8, n)
	for i := range x {
		x[i] = uint8(i * 37)
	}
	m, s := []float32{124, 116, 104}, []float32{58, 57, 57}
	p, err := Compile(Convert[uint8](Clamp(Round(Mul(Div(Sub(Convert[float32](Input[uint8]("x", h, w, c)), Input[float32]("m", c)),
		Input[float32]("s", c)), Const[float32](255))), Const[float32](0), Const[float32](255))))
	require.NoError(t, err)
	got := make([]uint8, n)
	run := func() { require.NoError(t, p.Run(got, Array("x", x), Array("m", m), Array("s", s))) }
	run()
	tmp, want := make([]float32, n), make([]uint8, n)
	elem.Convert(tmp, x)
	elem.Sub(tmp, tmp, expand(m, []int{c}, broadcast.Shape{h, w, c}))
	elem.Div(tmp, tmp, expand(s, []int{c}, broadcast.Shape{h, w, c}))
	elem.MulScalar(tmp, tmp, 255)
	elem.Round(tmp, tmp)
	elem.Clamp(tmp, tmp, 0, 255)
	elem.Convert(want, tmp)
	require.Equal(t, want, got)
	require.Zero(t, testing.AllocsPerRun(20, run))
}

// TestConvertInputAtRoot converts an input alone, and converts an input
// there and back in place over it.
func TestConvertInputAtRoot(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 25))
	x := convValues[float32](rng, 700)
	p, err := Compile(Convert[uint8](Input[float32]("x", 700)))
	require.NoError(t, err)
	got, want := make([]uint8, 700), make([]uint8, 700)
	require.NoError(t, p.Run(got, Array("x", x)))
	elem.Convert(want, x)
	require.Equal(t, want, got)

	q, err := Compile(Convert[float32](Convert[int16](Input[float32]("x", 700))))
	require.NoError(t, err)
	mid, back := make([]int16, 700), make([]float32, 700)
	elem.Convert(mid, x)
	elem.Convert(back, mid)
	require.NoError(t, q.Run(x, Array("x", x)))
	requireSameValues(t, back, x, "in place")
}

// TestConvertHalf: elem.Float16 and elem.BFloat16 inputs and outputs of a
// plan of another type, converted by value with elem.Convert's rounding
// (special values included), bit for bit against elem's calls step by step,
// broadcast and tiled, by Run and RunParallel; arithmetic on them is ErrOp.
func TestConvertHalf(t *testing.T) {
	rng := rand.New(rand.NewPCG(91, 92))
	specials := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 65504, 65520, 1e-7, 6e-8, 3e38, float32(math.Inf(1)),
		float32(math.NaN()), math.Float32frombits(0x7f800123), 0.1, 1.0009766}
	for _, shape := range [][2]int{{1, 7}, {3, 5}, {33, 70}, {300, 301}} {
		n := shape[0] * shape[1]
		w := make([]float32, n)
		for i := range w {
			w[i] = float32(rng.NormFloat64() * 100)
			if i < len(specials) {
				w[i] = specials[i]
			}
		}
		h, bh := make([]elem.Float16, n), make([]elem.BFloat16, n)
		elem.Convert(h, w)
		elem.Convert(bh, w)
		scale := make([]float32, shape[1])
		for i := range scale {
			scale[i] = float32(rng.Float64()*4 - 2)
		}
		// y = Float16(float32(h) * scale + float32(bh)), scale a row.
		root := Convert[elem.Float16](FMA(Convert[float32](Input[elem.Float16]("h", shape[0], shape[1])), Input[float32]("s", shape[1]),
			Convert[float32](Input[elem.BFloat16]("b", shape[0], shape[1]))))
		p, err := Compile(root)
		require.NoError(t, err)
		hf, bf := make([]float32, n), make([]float32, n)
		elem.Convert(hf, h)
		elem.Convert(bf, bh)
		want32 := make([]float32, n)
		for r := range shape[0] {
			row := want32[r*shape[1] : (r+1)*shape[1]]
			elem.FMA(row, hf[r*shape[1]:(r+1)*shape[1]], scale, bf[r*shape[1]:(r+1)*shape[1]])
		}
		want := make([]elem.Float16, n)
		elem.Convert(want, want32)
		args := []Binding{Array("h", h), Array("s", scale), Array("b", bh)}
		for _, workers := range []int{0, 2} {
			got := make([]elem.Float16, n)
			if workers == 0 {
				require.NoError(t, p.Run(got, args...))
			} else {
				require.NoError(t, p.RunParallel(workers, got, args...))
			}
			require.Equal(t, want, got, "shape %v, workers %d", shape, workers)
		}
	}
	for _, c := range []struct {
		what string
		err  error
	}{
		{"add", compileErr(Add(Input[elem.Float16]("h", 3), Input[elem.Float16]("g", 3)))},
		{"neg", compileErr(Neg(Input[elem.BFloat16]("h", 3)))},
	} {
		require.ErrorIs(t, c.err, ErrOp, c.what)
		require.ErrorContains(t, c.err, "is storage, with no arithmetic", c.what)
	}
}

func compileErr[T elem.Number](root Node[T]) error {
	_, err := Compile(root)
	return err
}
