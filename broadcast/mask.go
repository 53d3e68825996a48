package broadcast

import "github.com/simdkit/elem/internal/kernel"

// ReduceCount sets each element of dst to the number of true values of
// mask that it reduces, over the given axes, with ReduceSum's shapes, axes
// and errors (NumPy's count_nonzero(mask, axis=...)). A count of nothing
// is 0.
func ReduceCount(dst []int, dstShape Shape, mask []bool, maskShape Shape, axes ...int) error {
	var kept, summed [nestRoom]group
	r, err := checkReduce("count", dst, dstShape, mask, maskShape, axes, kept[:0], summed[:0])
	if err != nil || r.empty {
		return err
	}
	countTrue(r, dst, mask)
	return nil
}

// ReduceAny sets each element of dst to whether some value of mask that
// it reduces is true (false over nothing), with ReduceCount's arguments.
// It allocates the counts.
func ReduceAny(dst []bool, dstShape Shape, mask []bool, maskShape Shape, axes ...int) error {
	return reduceBool("any", dst, dstShape, mask, maskShape, axes, false)
}

// ReduceAll sets each element of dst to whether every value of mask that
// it reduces is true (true over nothing), with ReduceCount's arguments.
// It allocates the counts.
func ReduceAll(dst []bool, dstShape Shape, mask []bool, maskShape Shape, axes ...int) error {
	return reduceBool("all", dst, dstShape, mask, maskShape, axes, true)
}

func reduceBool(what string, dst []bool, dstShape Shape, mask []bool, maskShape Shape, axes []int, all bool) error {
	var kept, summed [nestRoom]group
	r, err := checkReduce(what, dst, dstShape, mask, maskShape, axes, kept[:0], summed[:0])
	if err != nil || r.empty {
		return err
	}
	counts := make([]int, len(dst))
	countTrue(r, counts, mask)
	for i, n := range counts {
		dst[i] = n > 0 && !all || all && n == r.count
	}
	return nil
}

// countTrue sets dst to the counts of the reduction r of mask: runs
// counted eight values a word when the innermost axis is reduced, else
// rows of mask added into the rows of counts.
func countTrue(r reduction, dst []int, mask []bool) {
	switch {
	case r.count == 0:
		clear(dst)
	case len(r.summed) == 0: // every reduced axis has size 1
		for i, x := range kernel.BoolBytes(mask) {
			dst[i] = int(x)
		}
	case r.innerSummed:
		run, outer := r.summed[len(r.summed)-1].size, r.summed[:len(r.summed)-1]
		o := 0
		offsets(r.kept, 0, func(base int) {
			n := 0
			offsets(outer, 0, func(off int) { n += kernel.CountTrue(mask[base+off:][:run]) })
			dst[o] = n
			o++
		})
	default:
		inner, outer := r.kept[len(r.kept)-1], r.kept[:len(r.kept)-1]
		o := 0
		offsets(outer, 0, func(base int) {
			out := dst[o:][:inner.size]
			clear(out)
			offsets(r.summed, 0, func(off int) {
				for c, x := range kernel.BoolBytes(mask[base+off:][:inner.size]) {
					out[c] += int(x)
				}
			})
			o += inner.size
		})
	}
}
