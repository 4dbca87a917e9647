package dev.h2beam.adapters.plugin;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.security.CodeSource;

/**
 * A registered plug-in class that could not be made into a provider, told the way its author can act on it: which
 * class, which jar it came from, and why in words ("compiled for Java 25 ...: rebuild it with --release 17").
 * A plug-in built for another Java or against another h2beam fails as a {@link LinkageError} whose own text names
 * neither the jar nor the fix, so the words are chosen here, once, for loading and for calls alike.
 *
 * @param service the interface it is registered as
 * @param provider the registered class name
 * @param source the jar or folder the class comes from, or {@code "not on the class path"}
 * @param cause why it could not be made, and what to do
 */
public record BrokenProvider(String service, String provider, String source, String cause) {

  /** One line: the class, its jar and the cause. */
  public String line() {
    return provider + " (" + source + "), registered as a " + simple(service) + ": " + cause;
  }

  /** Why {@code provider}, looked up through {@code loader}, failed with {@code t}. */
  static BrokenProvider of(Class<?> service, String provider, ClassLoader loader, Throwable t) {
    return new BrokenProvider(service.getName(), provider, source(loader, provider), cause(t, loader, provider));
  }

  /**
   * What a {@link LinkageError} thrown by a loaded plug-in's code means for its author: a class file of a newer Java,
   * or a plug-in compiled against another h2beam (a method or class of that version that this one lacks).
   */
  public static String linkage(LinkageError e, Class<?> plugin) {
    // the class that failed is one the plug-in uses, not the plug-in's (which loaded): its version is in the message
    return cause(e, plugin.getClassLoader(), null);
  }

  /** The jar or folder {@code c} was loaded from. */
  public static String source(Class<?> c) {
    CodeSource cs = c.getProtectionDomain() == null ? null : c.getProtectionDomain().getCodeSource();
    if (cs != null && cs.getLocation() != null) return path(cs.getLocation());
    return source(c.getClassLoader(), c.getName());
  }

  /** The jar or folder that holds class {@code name} for {@code loader}, found from its class file. */
  static String source(ClassLoader loader, String name) {
    URL u = resource(loader, name);
    if (u == null) return "not on the class path";
    String s = u.toString();
    if (u.getProtocol().equals("jar") && s.contains("!/")) {
      try {
        return path(new URL(s.substring("jar:".length(), s.indexOf("!/"))));
      } catch (IOException e) {
        return s;
      }
    }
    String file = path(u);
    String suffix = "/" + name.replace('.', '/') + ".class";
    return file.endsWith(suffix) ? file.substring(0, file.length() - suffix.length()) : file;
  }

  private static URL resource(ClassLoader loader, String name) {
    String file = name.replace('.', '/') + ".class";
    return loader == null ? ClassLoader.getSystemResource(file) : loader.getResource(file);
  }

  private static String path(URL u) {
    try {
      return u.getProtocol().equals("file") ? Path.of(u.toURI()).toString() : u.toString();
    } catch (URISyntaxException | RuntimeException e) {
      return u.toString();
    }
  }

  /** Why {@code t}; {@code name} is the class that failed to load, or null when that is not known. */
  private static String cause(Throwable t, ClassLoader loader, String name) {
    if (t instanceof InvocationTargetException i && i.getCause() != null) {
      return "its constructor failed: " + cause(i.getCause(), loader, name);
    }
    if (t instanceof UnsupportedClassVersionError) {
      int major = name == null ? 0 : major(loader, name);
      int here = Runtime.version().feature();
      return (major > 44 ? "compiled for Java " + (major - 44) + " (class file " + major + ")"
          : "compiled for a newer Java (" + describe(t) + ")") + ", this JVM is Java " + here
          + ": rebuild it with --release " + here + " (maven.compiler.release " + here + ")";
    }
    if (t instanceof IncompatibleClassChangeError) {
      // NoSuchMethodError, NoSuchFieldError, AbstractMethodError: it calls or implements what this h2beam lacks
      return "built against another h2beam: rebuild it against this version (" + describe(t) + ")";
    }
    if (t instanceof NoClassDefFoundError) {
      return "a class it needs is missing (" + describe(t).replace('/', '.') + "): rebuild it against this h2beam, or"
          + " add the jar that holds the class to H2BEAM_EXTRA_CLASSPATH";
    }
    if (t instanceof ExceptionInInitializerError && t.getCause() != null) {
      return "its static initialiser failed: " + describe(t.getCause());
    }
    if (t instanceof ClassNotFoundException) {
      return "no such class on the class path: its META-INF/services entry names a class its jar does not hold";
    }
    if (t instanceof NoSuchMethodException) return "it has no public no-argument constructor";
    if (t instanceof ClassCastException && t.getMessage() != null) return t.getMessage();
    return describe(t);
  }

  private static String describe(Throwable t) {
    return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
  }

  /** The class file's major version, or 0 when it cannot be read. */
  private static int major(ClassLoader loader, String name) {
    URL u = resource(loader, name);
    if (u == null) return 0;
    try (InputStream in = u.openStream()) {
      byte[] head = in.readNBytes(8);
      return head.length == 8 ? ((head[6] & 0xff) << 8) | (head[7] & 0xff) : 0;
    } catch (IOException e) {
      return 0;
    }
  }

  static String simple(String service) {
    return service.substring(service.lastIndexOf('.') + 1);
  }
}
