package dev.benchplan.kubetest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Objects;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The kubelet stand-in's TLS material, PEM files written by {@code scripts/kube-test-env.sh}: its
 * serving certificate and PKCS#8 RSA key, and the environment's CA. The apiserver verifies the
 * serving certificate against the CA ({@code --kubelet-certificate-authority}), and the stand-in
 * requires the apiserver's client certificate, signed by the same CA.
 *
 * @param certificate PEM serving certificate (SAN IP 127.0.0.1)
 * @param privateKey PEM PKCS#8 RSA private key
 * @param caCertificate PEM CA certificate
 */
public record KubeletTls(Path certificate, Path privateKey, Path caCertificate) {
  /** Validates that all three paths are given. */
  public KubeletTls {
    Objects.requireNonNull(certificate, "certificate");
    Objects.requireNonNull(privateKey, "privateKey");
    Objects.requireNonNull(caCertificate, "caCertificate");
  }

  /** An SSL context serving {@link #certificate} and trusting only {@link #caCertificate}. */
  public SSLContext sslContext() {
    try {
      CertificateFactory cf = CertificateFactory.getInstance("X.509");
      X509Certificate cert = readCertificate(cf, certificate);
      X509Certificate ca = readCertificate(cf, caCertificate);
      PrivateKey key =
          KeyFactory.getInstance("RSA")
              .generatePrivate(new PKCS8EncodedKeySpec(pemBody(privateKey, "PRIVATE KEY")));
      char[] password = "kubelet".toCharArray();
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry("kubelet", key, password, new Certificate[] {cert, ca});
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, password);
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry("ca", ca);
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
      return ctx;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException(
          "cannot build the kubelet TLS context from " + certificate + " and " + privateKey, e);
    }
  }

  private static X509Certificate readCertificate(CertificateFactory cf, Path file)
      throws IOException, GeneralSecurityException {
    try (InputStream in = Files.newInputStream(file)) {
      return (X509Certificate) cf.generateCertificate(in);
    }
  }

  private static byte[] pemBody(Path file, String type) {
    try {
      String pem = Files.readString(file, StandardCharsets.US_ASCII);
      String begin = "-----BEGIN " + type + "-----";
      String end = "-----END " + type + "-----";
      int from = pem.indexOf(begin);
      int to = pem.indexOf(end);
      if (from < 0 || to < 0) {
        throw new IllegalStateException(file + ": expected a PEM block '" + begin + "'");
      }
      return Base64.getMimeDecoder().decode(pem.substring(from + begin.length(), to));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
