// Planted for tst_seconds_names_planted: two duration names spelled the old way, one right one
// and a rate, which the check must leave alone.
constexpr double kNvlsLatencyS = 23.0e-6;
struct Planted {
    double burstGapS = 0.0;
    double window_s = 60;
    double nicBytesPerS = 50e9;
};
