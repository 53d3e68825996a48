package main

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/cpuinfo"
	"github.com/simdkit/elem/internal/kernel"
)

// This file is -tune: it measures on this machine which implementation is
// fastest at which call size and from which size streaming stores pay,
// fits the simplest rule to each (the crossovers), and compares them with
// the library's automatic choice; -tune -check times the automatic choice
// against every forced implementation and store mode at the sizes of the
// bar that issue 16 set.

// tuneMinTime and tuneRounds are -time and -reps under -tune unless given:
// many short timings, so that each mode gets some that other processes
// left alone.
const (
	tuneMinTime = 2 * time.Millisecond
	tuneRounds  = 9
)

// runMode is one way of running the calls that -tune compares: the
// automatic choice, or one implementation forced with one store mode.
type runMode struct {
	name   string
	impl   string          // elem.Auto, or an implementation's name
	stream int             // the streaming threshold while it runs, unless lib is set
	lib    *kernel.Setting // the library's setting, whose streaming policy it runs with
}

// apply makes m the way calls run.
func (m runMode) apply() {
	if m.lib != nil {
		kernel.Restore(*m.lib)
	} else {
		kernel.SetStreamMinBytes(m.stream)
	}
	if err := elem.SetImplementation(m.impl); err != nil {
		panic(err) // the modes are built from elem.Implementations
	}
}

// Store modes of a forced implementation: the threshold that never and
// the one that always streams.
const (
	neverStream  = math.MaxInt
	alwaysStream = 0
)

// forcedModes are the forced implementations in impls, each with ordinary
// stores, and with streaming stores too where the kernels have them.
func forcedModes(impls []string) []runMode {
	var ms []runMode
	for _, impl := range impls {
		ms = append(ms, runMode{name: impl, impl: impl, stream: neverStream})
		if kernel.HasStreaming && impl != "generic" {
			ms = append(ms, runMode{name: impl + "+nt", impl: impl, stream: alwaysStream})
		}
	}
	return ms
}

// timeModes times run under every mode in interleaved rounds, the same
// number of calls in each timing (enough for minTime under the first
// mode), in one order and then the reverse, so that a slow spell of the
// machine, even one that recurs with the rounds, hits every mode alike. Each
// timing follows a quarter as many untimed calls under its mode, and at
// least one: the caches must hold what that mode leaves in them, not what
// the mode before left (lines of dst that ordinary stores left dirty slow
// the streaming stores that follow by a third). It returns the timings
// per mode, in ns per call, each round's in order.
func timeModes(run func(), modes []runMode, minTime time.Duration, rounds int) [][]float64 {
	modes[0].apply()
	iters := calibrate(run, minTime)
	times := make([][]float64, len(modes))
	for r := range rounds {
		for j := range modes {
			i := j
			if r%2 == 1 {
				i = len(modes) - 1 - j
			}
			m := modes[i]
			m.apply()
			for range max(1, iters/4) {
				run()
			}
			times[i] = append(times[i], timeCalls(run, iters))
		}
	}
	return times
}

// summarizeModes summarizes the timings of each mode.
func summarizeModes(times [][]float64) []timing {
	ts := make([]timing, len(times))
	for i := range times {
		ts[i] = summarize(times[i])
	}
	return ts
}

// tuneCase is one call that -tune times: an op on n elements of a type, of
// a kind, moving bytes bytes (output and input rows).
type tuneCase struct {
	op    elem.Op
	typ   string
	kind  string
	n     int
	bytes int
}

func (c tuneCase) String() string { return fmt.Sprintf("%s/%s/%s/n=%d", c.op, c.typ, c.kind, c.n) }

// newTuneCase is the call of op, typ and kind on n elements.
func newTuneCase(op elem.Op, typ, kind string, n int) tuneCase {
	return tuneCase{op, typ, kind, n, int(bytesMoved(typ, kind, n))}
}

// caseOfBytes is the call of op, typ and kind whose bytes are closest to
// bytes.
func caseOfBytes(op elem.Op, typ, kind string, bytes int) tuneCase {
	perElem := int(bytesMoved(typ, kind, 1))
	return newTuneCase(op, typ, kind, max(1, (bytes+perElem/2)/perElem))
}

// measured is a case with the timing of each mode, in the modes' order.
type measured struct {
	tuneCase
	t []timing
}

// nsPerElem is mode i's time per output element: the fastest of its
// timings. Other processes on the machine only ever add time, in bursts
// that the interleaved rounds spread over every mode; the fastest timing
// is the one they disturbed least, and varies far less from run to run on
// a busy machine than the median does.
func (m measured) nsPerElem(i int) float64 { return m.t[i].min / float64(m.n) }

// fastest is the index of the fastest mode among those idx allows (nil:
// all).
func (m measured) fastest(idx []int) int {
	if idx == nil {
		idx = make([]int, len(m.t))
		for i := range idx {
			idx[i] = i
		}
	}
	best := idx[0]
	for _, i := range idx {
		if m.t[i].min < m.t[best].min {
			best = i
		}
	}
	return best
}

// ratio is mode i's time over the fastest's of those idx allows.
func (m measured) ratio(i int, idx []int) float64 {
	return m.t[i].min / m.t[m.fastest(idx)].min
}

// measureCases times every case under every mode, printing a row per case
// as it is measured; cell writes a row's cells after the name, and may
// time the case's call (run) again.
func measureCases(w io.Writer, cfg config, cases []tuneCase, modes []runMode, cell func(m measured, run func()) string) []measured {
	width := len("call")
	for _, c := range cases {
		width = max(width, len(c.String()))
	}
	var out []measured
	for _, c := range cases {
		run := elemTypes[c.typ].kernel(c.op, c.kind, c.n, 0)
		runtime.GC() // the last case's buffers, now rather than during the timings
		m := measured{c, summarizeModes(timeModes(run, modes, cfg.minTime, cfg.reps))}
		fmt.Fprintf(w, "%-*s  %9s  %s\n", width, c, cpuinfo.Bytes(c.bytes), cell(m, run))
		out = append(out, m)
	}
	return out
}

// modeCells writes each mode's ns per element, marking the fastest of
// those idx allows with * and noisy ones with !.
func modeCells(m measured, idx []int) string {
	var b strings.Builder
	best := m.fastest(idx)
	for i := range m.t {
		s := fmt.Sprintf("%.3f", m.nsPerElem(i))
		if i == best {
			s += "*"
		}
		if m.t[i].noisy() {
			s += noisyMark
		}
		fmt.Fprintf(&b, "  %10s", s)
	}
	return b.String()
}

// modeHeader writes the header of a table of modes.
func modeHeader(w io.Writer, cases []tuneCase, modes []runMode, extra string) {
	width := len("call")
	for _, c := range cases {
		width = max(width, len(c.String()))
	}
	fmt.Fprintf(w, "%-*s  %9s", width, "call", "bytes")
	for _, m := range modes {
		fmt.Fprintf(w, "  %10s", m.name)
	}
	fmt.Fprintf(w, "  %s\n", extra)
}

// sizeRule is a choice between two things by a call's bytes: small up to
// upTo bytes, large beyond. upTo -1 gives large to every call, and
// math.MaxInt small.
type sizeRule struct {
	small, large int // mode indices
	upTo         int
}

// pick returns the mode r gives a call of bytes bytes.
func (r sizeRule) pick(bytes int) int {
	if bytes <= r.upTo {
		return r.small
	}
	return r.large
}

// score is how a choice does over a set of timed calls: how many of them
// it runs more than missSlack slower than the fastest, by how much in all
// (the sum of the logarithms of the ratios beyond 1 + missSlack), and the
// worst ratio. Fits go by the misses first: one call that a burst of other
// work slowed down costs a choice one miss, where a choice that is a few
// percent slower at every size in a cache level misses at each.
type score struct {
	calls, misses int
	excess, worst float64
}

// missSlack is how much slower than the fastest a call may run before it
// counts as a miss: about the noise of a timing on a quiet machine.
const missSlack = 0.03

// add counts one call, run ratio times slower than the fastest.
func (s *score) add(ratio float64) {
	s.calls++
	if ratio > 1+missSlack {
		s.misses++
		s.excess += math.Log(ratio / (1 + missSlack))
	}
	s.worst = max(s.worst, ratio)
}

// better reports whether s is better than t: fewer misses, or as many
// and less excess.
func (s score) better(t score) bool {
	return s.misses < t.misses || s.misses == t.misses && s.excess < t.excess
}

// String writes s: "2 of 84 calls more than 3% slower than the fastest,
// worst 1.06x".
func (s score) String() string {
	return fmt.Sprintf("%d of %d calls more than %.0f%% slower than the fastest, worst %.2fx", s.misses, s.calls, 100*missSlack, s.worst)
}

// fitTolerance is how much more excess than the best fit a simpler one
// with as many misses may have and still be preferred.
const fitTolerance = 0.02

// fitBest returns the first of cands, which come simplest first, whose
// score has the fewest misses and, within fitTolerance, the least excess.
func fitBest[C any](cands []C, scoreOf func(C) score) (C, score) {
	scores := make([]score, len(cands))
	best := 0
	for i, c := range cands {
		scores[i] = scoreOf(c)
		if scores[i].better(scores[best]) {
			best = i
		}
	}
	for i, sc := range scores {
		if sc.misses == scores[best].misses && sc.excess <= scores[best].excess+fitTolerance {
			return cands[i], sc
		}
	}
	panic("unreachable: the best candidate is within tolerance of itself")
}

// fitRule returns the simplest rule over the modes idx allows that fits
// best (see fitBest): one mode for every call before a split by size, and,
// of splits, the one with the preferred boundary (the smallest, or with
// preferLarge the largest).
func fitRule(ms []measured, idx []int, preferLarge bool) (sizeRule, score) {
	var bounds []int
	for _, m := range ms {
		bounds = append(bounds, m.bytes)
	}
	slices.Sort(bounds)
	bounds = slices.Compact(bounds)
	if preferLarge {
		slices.Reverse(bounds)
	}
	var cands []sizeRule
	for _, i := range idx {
		cands = append(cands, sizeRule{i, i, -1})
	}
	for _, b := range bounds {
		for _, s := range idx {
			for _, l := range idx {
				if s != l {
					cands = append(cands, sizeRule{s, l, b})
				}
			}
		}
	}
	return fitBest(cands, func(r sizeRule) score {
		var sc score
		for _, m := range ms {
			sc.add(m.ratio(r.pick(m.bytes), idx))
		}
		return sc
	})
}

// describeRule writes r over modes: "avx512 up to 48 KiB, avx2 beyond".
func describeRule(r sizeRule, modes []runMode) string {
	if r.small == r.large {
		return modes[r.small].name + " for every call"
	}
	return fmt.Sprintf("%s up to %s, %s beyond", modes[r.small].name, cpuinfo.Bytes(r.upTo), modes[r.large].name)
}

// agreeMisses is how many more calls the library's choice may miss (see
// score) than the fitted one before -tune calls them different.
const agreeMisses = 1

// tune runs -tune, and with -check the check of the bar, and writes the
// report to w.
func tune(w io.Writer, cfg config) {
	saved := kernel.Save()
	defer kernel.Restore(saved)
	if cfg.check {
		worst := tuneCheck(w, cfg, saved)
		fmt.Fprintf(w, "tune: worst auto/best = %.2f\n", worst)
		return
	}
	cs := cpuinfo.Get().Caches
	var found tuneFindings
	found.impl, found.compute = tuneImpls(w, cfg, cs)
	found.stream = tuneStreaming(w, cfg, cs, saved)
	found.print(w, cs)
}

// tuneFindings are the crossovers -tune found.
type tuneFindings struct {
	impl, compute *implFinding // nil: nothing to choose (one implementation)
	stream        *streamFinding
}

// implFinding is the rule fitted to the implementations' timings of one
// class of ops, beside the library's.
type implFinding struct {
	rule       sizeRule
	modes      []runMode
	found, lib score // of the fitted rule and of the library's choice
}

// streamFinding is the fitted streaming policy and the implementation
// that streams fastest, beside the library's.
type streamFinding struct {
	fit             kernel.StreamPolicy
	lib             string // the library's policy, described
	impl            string
	found, libScore score // of the fitted choices, and of the library's
}

// fitStream fits a streaming policy to calls timed with ordinary (t[0])
// and streaming (t[1]) stores (see fitBest), preferring one threshold to a
// threshold with a gap, and streaming fewer calls to more.
func fitStream(ms []measured) (kernel.StreamPolicy, score) {
	var sizes []int
	for _, m := range ms {
		sizes = append(sizes, m.bytes)
	}
	slices.Sort(sizes)
	sizes = slices.Compact(sizes)
	cands := []kernel.StreamPolicy{{Min: math.MaxInt}}
	for i := len(sizes) - 1; i >= 0; i-- {
		cands = append(cands, kernel.StreamPolicy{Min: sizes[i]})
	}
	for i := len(sizes) - 1; i >= 0; i-- {
		for j := i + 1; j < len(sizes); j++ {
			for _, end := range append(slices.Clone(sizes[j+1:]), math.MaxInt) {
				cands = append(cands, kernel.StreamPolicy{Min: sizes[i], Gap: [2]int{sizes[j], end}})
			}
		}
	}
	return fitBest(cands, func(f kernel.StreamPolicy) score {
		var sc score
		for _, m := range ms {
			mode := 0
			if f.Streams(m.bytes) {
				mode = 1
			}
			sc.add(m.ratio(mode, nil))
		}
		return sc
	})
}

// tuneImpls times the implementations on add (memory-bound) and div
// (compute-bound), float32 and float64, vv and vs, from 1/128 of the L1d
// (a few dozen elements) to four times the L2 in steps of sqrt(2) anchored
// at the L1d, and fits a rule to each class.
func tuneImpls(w io.Writer, cfg config, cs cpuinfo.Caches) (memory, compute *implFinding) {
	var modes []runMode
	for _, impl := range simdImpls() {
		modes = append(modes, runMode{name: impl, impl: impl, stream: neverStream})
	}
	if len(modes) < 2 {
		fmt.Fprintf(w, "implementations: only %s here, nothing to choose by size\n\n", strings.Join(elem.Implementations(), " and "))
		return nil, nil
	}
	idx := make([]int, len(modes))
	for i := range idx {
		idx[i] = i
	}
	var out [2]*implFinding
	for ci, class := range []struct {
		op      elem.Op
		compute bool
	}{{elem.OpAdd, false}, {elem.OpDiv, true}} {
		var cases []tuneCase
		for _, typ := range []string{"float32", "float64"} {
			for _, kind := range []string{"vv", "vs"} {
				for _, b := range cacheGrid(cs.L1d, cs.L1d/128, 4*max(cs.L2, cs.L1d)) {
					cases = append(cases, caseOfBytes(class.op, typ, kind, b))
				}
			}
		}
		fmt.Fprintf(w, "implementations for %s (ns per element, fastest of %d interleaved rounds; * fastest, ! noisy):\n", class.op, cfg.reps)
		modeHeader(w, cases, modes, "library")
		lib := func(m measured) int {
			i := slices.IndexFunc(modes, func(r runMode) bool { return r.impl == kernel.AutoImplFor(class.compute, m.bytes, false).String() })
			if i < 0 {
				panic("elembench: the library picks an implementation that is not available")
			}
			return i
		}
		ms := measureCases(w, cfg, cases, modes, func(m measured, _ func()) string {
			return modeCells(m, nil) + "  " + kernel.AutoImplFor(class.compute, m.bytes, false).String()
		})
		f := &implFinding{modes: modes}
		f.rule, f.found = fitRule(ms, idx, false)
		for _, m := range ms {
			f.lib.add(m.ratio(lib(m), nil))
		}
		out[ci] = f
		fmt.Fprintln(w)
	}
	return out[0], out[1]
}

// tuneStreaming times float32 add and max, vv and vs, under every SIMD
// implementation with ordinary and streaming stores, from half the L2 to
// 256 MiB in steps of sqrt(2) anchored at the L2. It fits a threshold to
// the fastest ordinary against the fastest streaming time of each call,
// and finds the implementation that streams fastest.
func tuneStreaming(w io.Writer, cfg config, cs cpuinfo.Caches, saved kernel.Setting) *streamFinding {
	if !kernel.HasStreaming {
		fmt.Fprintf(w, "streaming stores: none on %s\n\n", runtime.GOARCH)
		return nil
	}
	modes := forcedModes(simdImpls())
	var cached, streaming []int
	for i, m := range modes {
		if m.stream == alwaysStream {
			streaming = append(streaming, i)
		} else {
			cached = append(cached, i)
		}
	}
	var cases []tuneCase
	l2 := max(cs.L2, cs.L1d)
	for _, op := range []elem.Op{elem.OpAdd, elem.OpMax} {
		for _, kind := range []string{"vv", "vs"} {
			for _, b := range cacheGrid(l2, l2/2, 256<<20) {
				cases = append(cases, caseOfBytes(op, "float32", kind, b))
			}
		}
	}
	// lib is the mode the library runs a call in.
	lib := func(m measured) int {
		stream := kernel.HasStreaming && saved.Stream().Streams(m.bytes)
		impl := kernel.AutoImplFor(false, m.bytes, stream).String()
		return slices.IndexFunc(modes, func(r runMode) bool { return r.impl == impl && (r.stream == alwaysStream) == stream })
	}
	fmt.Fprintf(w, "store modes (+nt: streaming stores; ns per element, fastest of %d interleaved rounds; * fastest, ! noisy):\n", cfg.reps)
	modeHeader(w, cases, modes, "library")
	ms := measureCases(w, cfg, cases, modes, func(m measured, _ func()) string {
		return modeCells(m, nil) + "  " + modes[lib(m)].name
	})
	fmt.Fprintln(w)
	// The policy, fitted to the fastest ordinary (0) and the fastest
	// streaming (1) time of each call.
	bests := make([]measured, len(ms))
	for i, m := range ms {
		bests[i] = measured{m.tuneCase, []timing{m.t[m.fastest(cached)], m.t[m.fastest(streaming)]}}
	}
	f := &streamFinding{lib: saved.Stream().String()}
	f.fit, _ = fitStream(bests)
	// The implementation that streams fastest: the streaming mode that
	// fits best against the fastest streaming mode, over the calls that
	// stream.
	var streamed []measured
	for _, m := range ms {
		if f.fit.Streams(m.bytes) {
			streamed = append(streamed, m)
		}
	}
	one, _ := fitBest(streaming, func(i int) score {
		var sc score
		for _, m := range streamed {
			sc.add(m.ratio(i, streaming))
		}
		return sc
	})
	f.impl = modes[one].impl
	for _, m := range ms {
		found := m.fastest(cached)
		if f.fit.Streams(m.bytes) {
			found = one
		}
		f.found.add(m.ratio(found, nil))
		f.libScore.add(m.ratio(lib(m), nil))
	}
	return f
}

// simdImpls are the implementations other than the generic Go kernels.
func simdImpls() []string {
	return slices.DeleteFunc(elem.Implementations(), func(impl string) bool { return impl == "generic" })
}

// cacheGrid returns sizes anchor*2^(k/2) from lo to hi.
func cacheGrid(anchor, lo, hi int) []int {
	var sizes []int
	for k := -64; k <= 64; k++ {
		s := int(math.Round(float64(anchor) * math.Pow(2, float64(k)/2)))
		if s >= lo && s <= hi {
			sizes = append(sizes, s)
		}
	}
	return sizes
}

// print writes what -tune found beside what the library does, the
// environment lines to paste where they disagree, and the rule-table row
// for this CPU.
func (f tuneFindings) print(w io.Writer, cs cpuinfo.Caches) {
	fmt.Fprintf(w, "crossovers found on this machine, and the library's, over the rows above:\n")
	var env []string
	differs := false
	for _, c := range []struct {
		name string
		f    *implFinding
	}{{"memory-bound ops (add)", f.impl}, {"compute-bound ops (div)", f.compute}} {
		if c.f == nil {
			continue
		}
		fmt.Fprintf(w, "  %s:\n    found   %s (%s)\n    library %s\n", c.name, describeRule(c.f.rule, c.f.modes), c.f.found, c.f.lib)
		differs = differs || c.f.lib.misses > c.f.found.misses+agreeMisses
	}
	if differs && f.impl.rule.small == f.impl.rule.large && f.compute.rule == f.impl.rule {
		env = append(env, "ELEM_IMPL="+f.impl.modes[f.impl.rule.small].impl)
		differs = false
	}
	if s := f.stream; s != nil {
		fmt.Fprintf(w, "  streaming stores:\n    found   %s, fastest with %s (%s)\n    library %s (%s)\n",
			s.fit, s.impl, s.found, s.lib, s.libScore)
		if s.libScore.misses > s.found.misses+agreeMisses {
			if s.fit.Gap[1] > s.fit.Gap[0] {
				differs = true
			} else {
				env = append(env, fmt.Sprintf("ELEM_STREAM_MIN=%d", s.fit.Min))
			}
		}
	}
	fmt.Fprintln(w)
	if differs {
		fmt.Fprintf(w, "the crossovers differ from the library's more than ELEM_IMPL and ELEM_STREAM_MIN can express: add the row below to the rule table\n")
	}
	switch {
	case len(env) == 0 && !differs:
		fmt.Fprintf(w, "overrides: none needed (the library misses at most %d call more than the fitted crossovers)\n", agreeMisses)
	case len(env) > 0:
		fmt.Fprintf(w, "overrides for this machine (paste into the environment):\n")
		for _, e := range env {
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
	fmt.Fprintf(w, "\nrule-table row for this CPU (internal/kernel/rules.go), from these measurements:\n  %s\n", f.ruleRow(cs))
}

// ruleRow writes the Go literal of a rule for this CPU from the findings:
// the base implementation is the one the findings give every memory-bound
// call (the default level where they split them), the fast one the one
// they give any call that the base does not run.
func (f tuneFindings) ruleRow(cs cpuinfo.Caches) string {
	c := cpuinfo.Get()
	base := kernel.Default().String()
	var fast string
	var head, fields []string
	if i := f.impl; i != nil && i.rule.small == i.rule.large && i.modes[i.rule.small].impl != base {
		base = i.modes[i.rule.small].impl
		head = append(head, "base: "+strings.ToUpper(base))
	}
	// split reports whether a fitted rule gives small calls to another
	// implementation than the base, and the same one as before, if any.
	split := func(i *implFinding) bool {
		if i == nil || i.rule.small == i.rule.large || i.modes[i.rule.large].impl != base {
			return false
		}
		if small := i.modes[i.rule.small].impl; fast == "" || fast == small {
			fast = small
			return true
		}
		return false
	}
	if split(f.impl) {
		level, _ := nearestLevel(f.impl.rule.upTo, cs, false)
		fields = append(fields, "fastUpTo: "+level)
	}
	if split(f.compute) {
		fields = append(fields, fmt.Sprintf("fastComputeUpTo: %d", f.compute.rule.upTo))
	}
	if s := f.stream; s != nil && s.fit.Min != math.MaxInt {
		if s.impl != base && (fast == "" || fast == s.impl) {
			fast = s.impl
			fields = append(fields, "fastStream: true")
		}
		level, size := nearestLevel(s.fit.Min, cs, true)
		fields = append(fields, "streamAt: "+level, fmt.Sprintf("streamPercent: %d", int(math.Round(100*float64(s.fit.Min)/float64(size)))))
		if s.fit.Gap[1] > s.fit.Gap[0] {
			fields = append(fields, fmt.Sprintf("streamGap: [2]int{%d, %d}", s.fit.Gap[0], s.fit.Gap[1]))
		}
	}
	if fast != "" {
		head = append(head, "fast: "+strings.ToUpper(fast))
	}
	fields = append(head, fields...)
	return fmt.Sprintf("{cpu: %q, vendor: cpuinfo.%s, family: %d, models: []int{%d}, %s},",
		fmt.Sprintf("%s family %d model %d, measured %s", cpuModel(), c.Family, c.Model, time.Now().Format("2006-01-02")),
		c.Vendor, c.Family, c.Model, strings.Join(fields, ", "))
}

// nearestLevel returns the rule-table constant of the cache whose size is
// nearest to bytes (by ratio), and that size: among the L1d, L2 and last
// level, or for streaming the L2 and last level.
func nearestLevel(bytes int, cs cpuinfo.Caches, streaming bool) (string, int) {
	levels := []struct {
		name string
		size int
	}{{"levelL1d", cs.L1d}, {"levelL2", cs.L2}, {"levelLast", cs.LastLevel()}}
	if streaming {
		levels = levels[1:]
	}
	best := 0
	for i, l := range levels {
		if l.size > 0 && math.Abs(math.Log(float64(bytes)/float64(l.size))) < math.Abs(math.Log(float64(bytes)/float64(levels[best].size))) {
			best = i
		}
	}
	return levels[best].name, levels[best].size
}

// checkSizes, checkOps, checkTypes and checkKinds are the bar's calls.
var (
	checkSizes = []int{8, 64, 1000, 16000, 262144, 2 << 20, 16 << 20}
	checkOps   = []elem.Op{elem.OpAdd, elem.OpMul, elem.OpDiv, elem.OpMax}
	checkTypes = []string{"float32", "float64"}
	checkKinds = []string{"vv", "vs"}
)

// tuneCheck times the automatic choice against every forced implementation
// and store mode on the bar's calls, and returns the worst ratio of the
// automatic choice's time to the fastest's.
func tuneCheck(w io.Writer, cfg config, saved kernel.Setting) float64 {
	kernel.Restore(saved)
	modes := append([]runMode{{name: elem.Auto, impl: elem.Auto, lib: &saved}}, forcedModes(elem.Implementations())...)
	var cases []tuneCase
	for _, op := range checkOps {
		for _, typ := range checkTypes {
			for _, kind := range checkKinds {
				for _, n := range checkSizes {
					cases = append(cases, newTuneCase(op, typ, kind, n))
				}
			}
		}
	}
	fmt.Fprintf(w, "check: the automatic choice (the dispatch above) against every implementation forced, with ordinary and (+nt) streaming stores\n")
	fmt.Fprintf(w, "ns per element, fastest of %d interleaved rounds; * fastest, ! noisy\n", cfg.reps)
	modeHeader(w, cases, modes, "auto/best")
	worst := 0.0
	measureCases(w, cfg, cases, modes, func(m measured, run func()) string {
		r := m.ratio(0, nil)
		cells := fmt.Sprintf("%s  %.2f", modeCells(m, nil), r)
		if best := m.fastest(nil); r > retimeAbove {
			again := summarizeModes(timeModes(run, []runMode{modes[0], modes[best]}, cfg.minTime, retimeFactor*cfg.reps))
			r = again[0].min / again[1].min
			cells += fmt.Sprintf(" -> %.2f (auto against %s again, %d rounds)", r, modes[best].name, retimeFactor*cfg.reps)
		}
		worst = max(worst, r)
		return cells
	})
	return worst
}

// A row of -check whose automatic choice is more than retimeAbove times
// slower than the fastest mode is timed again, the automatic choice
// against that mode alone, over retimeFactor times the rounds, and the
// second ratio counts: on a busy machine a burst of other work can hit
// every round of one mode of a row, and picking the fastest of six modes
// favours the mode that the noise favoured. A real difference shows
// again. (The ratio of the fastest timings varied less from run to run
// here than the median of the two modes' ratios within each round: the
// memory bandwidth that other tenants leave comes in spikes.)
const (
	retimeAbove  = 1.03
	retimeFactor = 3
)
