package alias

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// span is a test span at byte offset start of a fictitious buffer at 4096.
func span(start, elem int, dims ...[2]int) Span {
	s := Span{Start: uintptr(4096 + start), Elem: elem, Size: []int{}, Stride: []int{}}
	for _, d := range dims {
		s.Size = append(s.Size, d[0])
		s.Stride = append(s.Stride, d[1])
	}
	return s
}

func TestOverlapTable(t *testing.T) {
	type dims = [][2]int
	row := func(n int) dims { return dims{{n, 1}} }
	cases := []struct {
		name          string
		x, y          Span
		overlap, same bool
	}{
		{name: "same slice", x: span(0, 4, row(8)...), y: span(0, 4, row(8)...), overlap: true, same: true},
		{name: "disjoint slices", x: span(0, 4, row(8)...), y: span(32, 4, row(8)...)},
		{name: "shifted by one", x: span(0, 4, row(8)...), y: span(4, 4, row(8)...), overlap: true},
		{name: "prefix", x: span(0, 4, row(8)...), y: span(0, 4, row(4)...), overlap: true},
		{name: "empty", x: span(0, 4, [2]int{0, 1}), y: span(0, 4, row(8)...)},
		{name: "rank 0 inside", x: span(8, 4), y: span(0, 4, row(8)...), overlap: true},
		{name: "misaligned float64 views", x: span(0, 8, row(4)...), y: span(4, 8, row(4)...), overlap: true},
		{name: "byte-adjacent", x: span(0, 8, row(4)...), y: span(32, 8, row(4)...)},
		// Columns 0..3 and 4..7 of a 5 x 24 matrix: interleaved, disjoint.
		{name: "interleaved column blocks", x: span(0, 4, [2]int{5, 24}, [2]int{4, 1}), y: span(16, 4, [2]int{5, 24}, [2]int{4, 1})},
		{name: "column blocks touching", x: span(0, 4, [2]int{5, 24}, [2]int{5, 1}), y: span(16, 4, [2]int{5, 24}, [2]int{4, 1}), overlap: true},
		// Every other element against the ones between.
		{name: "even and odd", x: span(0, 4, [2]int{50, 2}), y: span(4, 4, [2]int{50, 2})},
		{name: "even and every third", x: span(0, 4, [2]int{50, 2}), y: span(4, 4, [2]int{30, 3}), overlap: true},
		{name: "column inside rows", x: span(0, 4, [2]int{3, 10}, [2]int{10, 1}), y: span(60, 4, [2]int{3, 1}), overlap: true},
		{name: "column beside rows", x: span(0, 4, [2]int{3, 12}, [2]int{10, 1}), y: span(40, 4, [2]int{3, 12})},
		{name: "broadcast row inside", x: span(0, 4, [2]int{4, 8}, [2]int{8, 1}), y: span(32, 4, [2]int{4, 0}, [2]int{8, 1}), overlap: true},
		{name: "reversed is not same", x: span(0, 4, row(8)...), y: span(28, 4, [2]int{8, -1}), overlap: true},
		{name: "reversed disjoint", x: span(0, 4, row(8)...), y: span(60, 4, [2]int{8, -1})},
		{name: "same, stride of size-1 dim differs", x: span(0, 4, [2]int{1, 5}, [2]int{8, 1}), y: span(0, 4, [2]int{1, 9}, [2]int{8, 1}), overlap: true, same: true},
		{name: "same start, other row stride", x: span(0, 4, [2]int{3, 10}, [2]int{10, 1}), y: span(0, 4, [2]int{3, 20}, [2]int{10, 1}), overlap: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.overlap, Overlap(c.x, c.y), "Overlap(x, y)")
			require.Equal(t, c.overlap, Overlap(c.y, c.x), "Overlap(y, x)")
			require.Equal(t, c.same, Same(c.x, c.y), "Same")
			require.Equal(t, c.overlap && !c.same, Conflict(c.x, c.y), "Conflict")
		})
	}
}

func TestSameOrDisjoint(t *testing.T) {
	for _, c := range []struct {
		x, y, n uintptr
		want    bool
	}{
		{100, 100, 32, true}, {100, 132, 32, true}, {132, 100, 32, true}, {100, 131, 32, false},
		{131, 100, 32, false}, {100, 101, 0, true}, {0, ^uintptr(0) - 7, 8, true},
	} {
		require.Equal(t, c.want, SameOrDisjoint(c.x, c.y, c.n), "%d %d %d", c.x, c.y, c.n)
		x := Span{Start: c.x, Elem: 1, Size: []int{int(c.n)}, Stride: []int{1}}
		y := Span{Start: c.y, Elem: 1, Size: []int{int(c.n)}, Stride: []int{1}}
		require.Equal(t, c.want, !Conflict(x, y), "Conflict agrees for %d %d %d", c.x, c.y, c.n)
	}
}

// bytesOf is the model: the set of bytes x's elements occupy, by brute force.
func bytesOf(x Span) map[uintptr]bool {
	set := map[uintptr]bool{}
	idx := make([]int, len(x.Size))
	for _, n := range x.Size {
		if n == 0 {
			return set
		}
	}
	for {
		off := 0
		for d, i := range idx {
			off += i * x.Stride[d]
		}
		for b := range x.Elem {
			set[uintptr(int(x.Start)+off*x.Elem+b)] = true
		}
		d := len(idx) - 1
		for ; d >= 0; d-- {
			if idx[d]++; idx[d] < x.Size[d] {
				break
			}
			idx[d] = 0
		}
		if d < 0 {
			return set
		}
	}
}

// randomSpan is a span of rank 0..4 with sizes 0..5 and strides -7..7 that
// lies within bytes 4096..4096+2048 at a start aligned to 4 bytes.
func randomSpan(rng *rand.Rand, elem int) Span {
	rank := rng.IntN(5)
	s := Span{Elem: elem, Size: make([]int, rank), Stride: make([]int, rank)}
	low := 0 // lowest element offset relative to index 0, in elements
	for d := range rank {
		s.Size[d] = rng.IntN(6)
		if rng.IntN(20) != 0 && s.Size[d] == 0 {
			s.Size[d] = 1 + rng.IntN(5)
		}
		s.Stride[d] = rng.IntN(15) - 7
		if s.Stride[d] < 0 {
			low += (max(s.Size[d], 1) - 1) * s.Stride[d]
		}
	}
	s.Start = uintptr(4096 + 4*rng.IntN(64) - low*elem)
	return s
}

// TestOverlapMatchesModel compares Overlap with the element-set model on
// random strided spans of float32- and float64-sized elements, misaligned
// starts included.
func TestOverlapMatchesModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := range 20000 {
		x, y := randomSpan(rng, []int{4, 8}[rng.IntN(2)]), randomSpan(rng, []int{4, 8}[rng.IntN(2)])
		bx, by := bytesOf(x), bytesOf(y)
		want := false
		for b := range bx {
			want = want || by[b]
		}
		what := fmt.Sprintf("iteration %d: x %+v, y %+v", iter, x, y)
		require.Equal(t, want, Overlap(x, y), what)
		require.Equal(t, want, Overlap(y, x), what)
		if Same(x, y) && len(bx) > 0 {
			require.True(t, Overlap(x, y), what)
		}
	}
}

func BenchmarkOverlap(b *testing.B) {
	// Interleaved column blocks of a 1024-row matrix: the exact path.
	x := span(0, 4, [2]int{1024, 24}, [2]int{4, 1})
	y := span(16, 4, [2]int{1024, 24}, [2]int{4, 1})
	for b.Loop() {
		if Overlap(x, y) {
			b.Fatal("overlap")
		}
	}
}

func TestSameOrDisjointRuns(t *testing.T) {
	cases := []struct {
		name           string
		x, xn, y, yn   uintptr
		sameOrDisjoint bool
	}{
		{"same", 100, 16, 100, 16, true},
		{"same start, other length", 100, 16, 100, 4, false},
		{"x before y", 100, 16, 116, 4, true},
		{"y before x", 120, 16, 100, 20, true},
		{"y inside x", 100, 16, 104, 4, false},
		{"x inside y", 104, 4, 100, 16, false},
		{"crossing", 100, 16, 110, 16, false},
		{"empty x", 104, 0, 100, 16, true},
		{"empty y", 100, 16, 104, 0, true},
	}
	for _, c := range cases {
		require.Equal(t, c.sameOrDisjoint, SameOrDisjointRuns(c.x, c.xn, c.y, c.yn), c.name)
	}
}
