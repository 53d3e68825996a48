package expr

import (
	"unsafe"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/rowtile"
)

// tileBytes is about the bytes of a tile (see tileRows): as long as a
// chunk of the fused kernels from the caches, so that they run the rows
// of a tile as they run long rows, and a small part of the L1d.
const tileBytes = fuseChunkBytes

// tileRows decides whether p runs its blocks as rows of a tile, as
// broadcast runs a dense block against a short repeated row (see
// rowtile): the output's rows are short (rowtile.RowBytes at most) and
// every array input is, along the two inner axes, dense, a row repeated
// along the outer one, or one value; the coalescing of the nest has left
// the two axes apart, so some input is a repeated row. Each of those is
// expanded into a tile, and a block of m rows of n becomes m*n/tile rows
// of the tile, the dense inputs read as such rows and the tiles with a
// leading stride of 0, and one shorter row for the rest: a kernel call
// per op over a few long rows, or the fused kernels over rows of a chunk,
// where the rows of n cost a row's overhead every n elements (and one
// fused call each, as the fused kernels cut rows shorter than a group
// apart). The tile is a multiple of n, of a vector and of a fused group
// (every implementation's) about tileBytes long, at most be elements, the
// smallest block of a run (a multiple of n only, when be is smaller); an
// output of one block is one row of the tile, or not tiled (see
// oneBlockTileRows). size is the largest element size of the plan's
// parts (see Convert).
func (p *Plan[T]) tileRows(be, size int) {
	r := len(p.size)
	n := p.size[r-1]
	if r < 2 || n*size > rowtile.RowBytes || n > be {
		return
	}
	for _, s := range p.arrays {
		dense, row, value := s.inc == 1 && s.ld == n, s.inc == 1 && s.ld == 0, s.inc == 0 && s.ld == 0
		if !dense && !row && !value {
			return // a column, or a strided axis
		}
	}
	switch {
	case r == 2 && p.outLen <= be && (n*size%vectorBytes == 0 || p.size[0] < oneBlockTileRows):
		return // see oneBlockTileRows
	case r == 2 && p.outLen <= be:
		p.tile = p.outLen // one kernel call per op, as the 2-D calls would be
	default:
		// An alignment of at most tileBytes/rowtile.RowBytes keeps the
		// tile within tileBytes for the longest rows.
		align := min(kernel.FuseMaxGroupBytes/size, tileBytes/rowtile.RowBytes)
		p.tile = rowtile.Len(n, align, tileBytes/size)
		if p.tile > be {
			p.tile = be / n * n
		}
	}
	for i := range p.arrays {
		s := &p.arrays[i]
		switch {
		case s.inc == 1 && s.ld == 0:
			s.row = true
		case s.ld == n:
			s.ld = p.tile
		}
	}
}

// An output of one block against a repeated row, which a run expands into
// the tile anew, is faster as the kernels' 2-D calls over its rows when
// they are whole vectors (vectorBytes: no tail) or fewer than
// oneBlockTileRows. kernel.Binary of m x n + (n) against the tile's
// expansion and one 1 x m*n call, ns per call, best of 15: float32 n = 8,
// about 300 and 3000 elements, 34 / 58 and 269 / 252; n = 16 26 / 55 and
// 172 / 251; float64 n = 4 58 / 78 and 520 / 676, n = 8 41 / 77 and 332 /
// 683; the others by rows, float32 n = 3: 10 rows 27 / 34, 21 42 / 40, 42
// 80 / 46, 100 170 / 64; n = 7: 9 rows 26 / 38, 18 40 / 42, 36 70 / 55;
// float64 n = 7: 18 rows 41 / 53, 36 70 / 72; n = 2 16 rows 43 / 32.
const (
	vectorBytes      = 32
	oneBlockTileRows = 32
)

// tiled computes the current block of a tiled plan, total elements of
// whole rows: the repeated rows expanded into their tiles (as far as the
// block needs them), the whole tiles as the rows of one block, and the
// rest as a block of one row.
func (p *Plan[T]) tiled(fr *fuseRun, b, t *scratch[T], dst []T, g *geometry, total int) {
	p.fillTiles(b, t, g.n0, min(p.tile, total))
	for j, pt := range p.parts {
		pt.fillTiles(b.subs[j], t.subs[j], g.n0, min(p.tile, total))
	}
	whole := total / p.tile
	if whole > 0 {
		p.compute(fr, b, t, dst, g, whole, p.tile)
	}
	rest := total - whole*p.tile
	if rest == 0 {
		return
	}
	skip := whole * p.tile
	for k := range p.arrays {
		if p.arrays[k].ld != 0 { // dense
			t.off[k] += skip
		}
	}
	t.off[len(p.arrays)] += skip
	p.compute(fr, b, t, dst, g, 1, rest)
}

// fillTiles expands into t's tiles the first count elements of the
// repeated rows of T (those of other types are the parts'), from the
// current block's offsets, rows of n0.
func (p *Plan[T]) fillTiles(b, t *scratch[T], n0, count int) {
	for k := range p.arrays {
		if p.arrays[k].row && p.arrays[k].tag == p.tag {
			t.tiles[k].Fill(b.data[k], t.off[k], n0, count)
		}
	}
}

// rowLen is the length of the rows that a block's kernel calls see: the
// output's inner axis, coalesced, or in a tiled plan the tile's, or the
// two inner axes' elements where they are fewer (an axis outside them cuts
// the blocks).
func (p *Plan[T]) rowLen() int {
	r := len(p.size)
	if p.tile > 0 {
		return min(p.tile, p.size[r-2]*p.size[r-1])
	}
	return p.size[r-1]
}

// streams reports whether a run writes dst with streaming stores under the
// policy in effect: its traffic calls for them (kernel.ShouldStream), and
// its rows (rowLen, one after another in dst) may stream
// (kernel.StreamBlock), or it is the one row of a flat output (cut into
// blocks on line boundaries).
func (p *Plan[T]) streams() bool { return p.rowsStream() && kernel.ShouldStream(p.streamBytes) }

// rowsStream reports whether p's rows may stream (see streams).
func (p *Plan[T]) rowsStream() bool {
	n := p.rowLen()
	return len(p.size) == 1 || kernel.StreamBlock(2, n, n, int(unsafe.Sizeof(T(0))))
}
