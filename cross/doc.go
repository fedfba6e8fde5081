// Package cross holds ictal's cross-compilation tooling and the test that
// the same seed gives the same bits on every architecture.
//
//	cross/build [TARGET...]   static ictald and ictal for arm64, armv7, armv6
//	                          and amd64 into bin/<target>/, sizes, the 15 MB
//	                          budget of ictald, and a static-link check
//	cross/test [TARGET...]    the unit tests of acquire, features, classifier,
//	                          alert and this package for arm64 and armv7
//	                          under qemu-user (go test -exec qemu-*-static)
//
// TestGoldenBits (golden_test.go) runs a simulated patient through the
// feature extractor and trains every algorithm × learner on the resulting
// stream, and compares SHA-256 hashes of the samples, of every feature
// column, of the scores, of the graded margins (censored too, for naive
// Bayes: the day-one model's grading) and of every checkpoint with values
// recorded on linux/amd64 (testdata/golden.json). cross/test runs it under qemu, so a
// checkpoint written on an emulated arm64 or armv7 is compared with one
// written on amd64.
//
// # Determinism across architectures
//
// The Go compiler fuses x*y + z into one multiply-add on arm64 (and
// ppc64x, s390x, riscv64, loong64, and amd64 from GOAMD64=v3), which
// rounds once instead of twice. The EDF reader's digital-to-physical
// scaling and the features package therefore round every product on its
// own (float64(x*y)), and the features take their logarithms from
// internal/detmath (acquire/edf's conformance test caught the scaling on
// arm64: 19.117647058823522 instead of 19.117647058823536); with that, the samples, the time-domain features and
// every model trained on them are bit-identical on amd64, arm64 and armv7.
// The spectral features are too, since the FFT is ictal's own
// (features/fft.go: products rounded on their own, twiddles and the Hann
// window from detmath's series); before, math.Cos and gonum's FFT, both
// compiled with fusion on arm64, gave them a few ulps apart and the test
// compared them to 1e-9 only. It now compares every feature and every
// model bit for bit on every platform. Windows whose length is not a
// power of two (2 s at 173.61 Hz: 347 samples, padded to 360) still go
// through gonum's mixed-radix FFT and are not bit-identical across
// platforms; the golden stream (256 Hz) does not exercise them.
//
// The golden stream catches a fused product only where it reaches one.
// TestNoFusedMultiplyAdd (fused_test.go) finds every one: it compiles
// acquire/edf, features, classifier, internal/detmath and
// internal/pipeline for arm64 with the compiler's listing and fails on
// any FMADD, FMSUB, FNMADD or FNMSUB outside a short list of functions
// that may fuse and why (a documented approximation, the filter chain's
// response at set-up). It found the ensembles' weighted vote, the patient
// baseline's update, the channel ranking's baseline and the score's
// calibration, which the goldens did not cover (now rounded on their
// own: amd64's bits unchanged, arm64's equal to them).
//
// On amd64 the hot loops of features, acquire/edf, classifier's naive
// Bayes and QDA (its Cholesky update and forward solve) and the
// pipeline's flatness test run in AVX or SSE2 assembly
// (the *_amd64.s files), each holding to the bits of the Go loop it
// stands for (the packages' tests compare them; the purego build tag
// runs the Go loops everywhere).
//
// # Emulated tests
//
// cross/test passes -short (CROSS_TEST_FLAGS overrides it), which skips
// only tests that are long because of their size (the classifier's
// million-update test; the spectral checks of acquire/synth's seizure and
// artifact kinds, whose samples TestKindsMatchGoldenDigest pins on every
// platform). It sets ICTAL_EMULATED=1, under which two alert
// tests skip themselves, saying why: TestMQTTLastWillWhenTheDaemonDies and
// TestMQTTKilledDaemonDeliversQueuedAlertsAfterRestart re-execute their
// own test binary as the daemon to SIGKILL it, and qemu-user cannot exec a
// foreign-architecture binary without binfmt_misc, and so does
// TestEmbeddedBrokerAttacksUnderMemoryLimit, which runs the broker's
// attacks in a child under GOMEMLIMIT (the in-process attack tests run). TestMQTTSinkNeverBlocksWithoutBroker
// allows a Sink call 100 ms instead of 10 ms under emulation (code is
// translated on first use); a blocked call would take seconds. The alert
// tests reach mosquitto on the host's loopback from the emulated process.
// Emulation costs about 20 to 30 times native speed, so cross/test runs
// with -short by default; acquire/synth is its longest package.
package cross
