import ArgumentParser
import NIOSSL

/// TLS on the client port: a certificate chain and its private key, both PEM files. Without them the port speaks
/// plain TCP, as for local use or behind a proxy that terminates TLS.
struct TLSOptions: ParsableArguments {
    @Option(help: "PEM file of the server's certificate chain; turns TLS on with --tls-key (env LAUREL_TLS_CERT).")
    var tlsCert: String?
    @Option(help: "PEM file of the certificate's private key (env LAUREL_TLS_KEY).")
    var tlsKey: String?

    /// The context every connection's TLS session is made from; nil when neither file is given.
    func context() throws -> NIOSSLContext? {
        let certificate = Setting.value(tlsCert, env: "LAUREL_TLS_CERT")
        let key = Setting.value(tlsKey, env: "LAUREL_TLS_KEY")
        switch (certificate, key) {
        case (nil, nil):
            return nil
        case (let certificate?, let key?):
            do {
                let chain = try NIOSSLCertificate.fromPEMFile(certificate).map { NIOSSLCertificateSource.certificate($0) }
                guard !chain.isEmpty else { throw SettingError("\(certificate) holds no certificate") }
                let privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
                let configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(privateKey))
                return try NIOSSLContext(configuration: configuration)
            } catch let error as SettingError {
                throw error
            } catch {
                throw SettingError("TLS: cannot use \(certificate) and \(key): \(error)")
            }
        default:
            throw SettingError("TLS needs both --tls-cert (LAUREL_TLS_CERT) and --tls-key (LAUREL_TLS_KEY)")
        }
    }
}
