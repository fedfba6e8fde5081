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
// column, of the scores and of every checkpoint with values recorded on
// linux/amd64 (testdata/golden.json). cross/test runs it under qemu, so a
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
// # Emulated tests
//
// cross/test passes -short (CROSS_TEST_FLAGS overrides it), which skips
// only tests that are long because of their size (the classifier's
// million-update test). It sets ICTAL_EMULATED=1, under which two alert
// tests skip themselves, saying why: TestMQTTLastWillWhenTheDaemonDies and
// TestMQTTKilledDaemonDeliversQueuedAlertsAfterRestart re-execute their
// own test binary as the daemon to SIGKILL it, and qemu-user cannot exec a
// foreign-architecture binary without binfmt_misc. TestMQTTSinkNeverBlocksWithoutBroker
// allows a Sink call 100 ms instead of 10 ms under emulation (code is
// translated on first use); a blocked call would take seconds. The alert
// tests reach mosquitto on the host's loopback from the emulated process.
// Emulation costs about 20 to 30 times native speed, so cross/test runs
// with -short by default; acquire/synth is its longest package.
package cross
