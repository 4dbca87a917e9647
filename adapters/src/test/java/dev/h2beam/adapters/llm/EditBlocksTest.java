package dev.h2beam.adapters.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading edit blocks out of a reply and applying them to a harness folder. */
class EditBlocksTest {
  @TempDir Path tmp;
  private Path harness;

  @BeforeEach
  void harness() throws Exception {
    harness = tmp.resolve("context/harness");
    Files.createDirectories(harness.resolve("skills/keep"));
    Files.writeString(harness.resolve("skills/keep/SKILL.md"), "keep\n");
    Files.writeString(harness.resolve("AGENTS.md"), "agents\n");
  }

  @Test
  void anEmptyBlockWritesAnEmptyFileAndCrLfRepliesAreRead() throws Exception {
    EditBlocks.Outcome o = EditBlocks.apply("<file path=\"empty.md\">\r\n</file>\r\n<file path=\"a.md\">\r\none\r\n"
        + "two\r\n</file>\r\n", harness);
    assertEquals(new EditBlocks.Applied("<file path=\"empty.md\">\r\n</file>\r\n<file path=\"a.md\">\r\none\r\ntwo"
        + "\r\n</file>\r\n", 2, 0), o);
    assertEquals("", Files.readString(harness.resolve("empty.md")));
    assertEquals("one\ntwo\n", Files.readString(harness.resolve("a.md")));
  }

  /**
   * A file's content may begin right after its opening tag, as models often write it (a reply written so was refused
   * as "not closed"); a closing tag that does not stand on a line of its own is named as such.
   */
  @Test
  void contentMayBeginOnTheOpeningTagsLineAndAClosingTagMustStandAlone() throws Exception {
    EditBlocks.Outcome o = EditBlocks.apply("<file path=\"systemprompt.md\">You are careful.\nAmounts are signed.\n"
        + "</file>\n<notes>made amounts signed</notes>\n", harness);
    assertEquals(new EditBlocks.Applied("made amounts signed", 1, 0), o);
    assertEquals("You are careful.\nAmounts are signed.\n", Files.readString(harness.resolve("systemprompt.md")));
    EditBlocks.Refused r = assertInstanceOf(EditBlocks.Refused.class,
        EditBlocks.apply("<file path=\"a.md\">\none\ntwo</file>\n", harness));
    assertEquals("a <file path=\"...\"> block is not closed: after the file's last line, put </file> on a line of"
        + " its own", r.reason());
  }

  @Test
  void aDeleteQuotedInsideAFileIsContentNotAnEdit() throws Exception {
    EditBlocks.apply("<file path=\"skills/howto/SKILL.md\">\nWrite <delete path=\"AGENTS.md\"/> to remove a file.\n"
        + "</file>\n", harness);
    assertTrue(Files.exists(harness.resolve("AGENTS.md")));
    assertEquals("Write <delete path=\"AGENTS.md\"/> to remove a file.\n",
        Files.readString(harness.resolve("skills/howto/SKILL.md")));
  }

  @Test
  void proseThatMentionsTheFileTagIsNotAnUnclosedBlock() throws Exception {
    EditBlocks.Outcome o = EditBlocks.apply("No changes: the <file> blocks would not help.\n<notes>none</notes>",
        harness);
    assertEquals(new EditBlocks.Applied("none", 0, 0), o);
  }

  @Test
  void aPathThroughAFileOrOntoAFolderIsRefused() throws Exception {
    EditBlocks.Refused r = assertInstanceOf(EditBlocks.Refused.class,
        EditBlocks.apply("<file path=\"AGENTS.md/x.md\">\nx\n</file>\n<file path=\"skills/keep\">\nx\n</file>\n"
            + "<delete path=\"skills\"/>\n", harness));
    assertEquals("path \"AGENTS.md/x.md\" goes through AGENTS.md, which is a file; path \"skills/keep\" is a folder;"
        + " a <file> block writes a file; path \"skills\" is a folder; delete the files in it one by one", r.reason());
    assertEquals("agents\n", Files.readString(harness.resolve("AGENTS.md")));
  }

  @Test
  void aHarnessFolderThatIsASymbolicLinkIsNeverEdited() throws Exception {
    Path real = tmp.resolve("real-harness");
    Files.createDirectories(real);
    Path linked = tmp.resolve("ctx2/harness");
    Files.createDirectories(linked.getParent());
    Files.createSymbolicLink(linked, real);
    EditBlocks.Refused r = assertInstanceOf(EditBlocks.Refused.class,
        EditBlocks.apply("<file path=\"a.md\">\nx\n</file>\n", linked));
    assertTrue(r.reason().contains("is a symbolic link; nothing is edited"), r.reason());
    assertTrue(Files.notExists(real.resolve("a.md")));
  }
}
