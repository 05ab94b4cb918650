internal import COpenSSL

/// OpenSSL set up for a process that runs one command and exits.
package enum CryptoLibrary {
    /// Initializes OpenSSL without its clean-up at exit. Freeing every table OpenSSL built cost a
    /// `get` about a twentieth of its instructions (bench/README.md), for memory the kernel takes
    /// back anyway; no key lives in those tables (the contexts that hold keys are freed, and
    /// cleansed, where they are used). The configuration is loaded as a default initialization loads
    /// it. Call it before any other use of OpenSSL: the first initialization decides, later calls
    /// change nothing.
    package static func initializeForOneCommand() {
        _ = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil)
    }
}
