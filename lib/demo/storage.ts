import { z } from "zod";
import { defineDemoTool, type DemoTool } from "./types";

const bucket = z.string().describe("Bucket (or shared drive) name.");
const key = z.string().describe('Object key, i.e. the file\'s path inside the bucket, e.g. "reports/2024/q3.pdf".');

export const STORAGE_TOOLS: DemoTool[] = [
  defineDemoTool({
    name: "storage_list_files",
    summary: "List files and folders in a cloud storage bucket under a path prefix, with size and modification date.",
    description:
      "Returns the objects under a prefix with key, size, content type and last modification time, plus the sub-folders when delimited. Results are paged; pass the returned cursor to continue.",
    parameters: {
      bucket,
      prefix: z.string().default("").describe('Only keys starting with this prefix, e.g. "invoices/2024/".'),
      recursive: z.boolean().default(false).describe("Include files in all sub-folders instead of listing folders."),
      cursor: z.string().optional().describe("Cursor from a previous page."),
      limit: z.int().min(1).max(1000).default(100).describe("Maximum number of entries."),
    },
    tags: ["storage", "files", "read-only"],
  }),
  defineDemoTool({
    name: "storage_search_files",
    summary: "Search cloud storage by file name or document content across buckets, filtered by type and date.",
    description:
      "Full-text search over file names and the extracted text of documents (PDF, Office, text). Returns bucket, key, size, modification date and a matching excerpt. Use storage_list_files when you already know the folder.",
    parameters: {
      query: z.string().min(1).describe("Words to search for in names and contents."),
      bucket: z.string().optional().describe("Only search this bucket."),
      contentType: z.string().optional().describe('Only files of this MIME type, e.g. "application/pdf".'),
      modifiedAfter: z.iso.date().optional().describe("Only files modified on or after this date (YYYY-MM-DD)."),
      limit: z.int().min(1).max(100).default(20).describe("Maximum number of results."),
    },
    tags: ["storage", "files", "search", "read-only"],
  }),
  defineDemoTool({
    name: "storage_download_file",
    summary: "Download a file from cloud storage and return its text, or metadata and a temporary URL for binaries.",
    description:
      "Returns the contents of text files (up to 2 MB) directly. For binary or larger files it returns metadata and a download URL valid for 15 minutes instead of the bytes.",
    parameters: {
      bucket,
      key,
      versionId: z.string().optional().describe("A specific earlier version; the latest when omitted."),
    },
    tags: ["storage", "files", "read-only"],
  }),
  defineDemoTool({
    name: "storage_upload_file",
    summary: "Upload text or base64 content to a cloud storage bucket as a new file or a new version of one.",
    description:
      "Writes an object and returns its key, size and version. An existing key gets a new version unless overwrite is false, in which case the upload fails. Binary content must be base64-encoded.",
    parameters: {
      bucket,
      key,
      content: z.string().describe("File contents: text, or base64 when encoding is base64."),
      encoding: z.enum(["utf8", "base64"]).default("utf8").describe("How content is encoded."),
      contentType: z.string().optional().describe("MIME type; guessed from the extension when omitted."),
      overwrite: z.boolean().default(true).describe("Replace an existing file with the same key."),
    },
    tags: ["storage", "files", "write"],
  }),
  defineDemoTool({
    name: "storage_create_share_link",
    summary: "Create an expiring share link to a stored file, for people without access to the bucket.",
    description:
      "Returns a signed URL that lets anyone with the link download the file until it expires. Keep the expiry as short as the use allows; links cannot be revoked before they expire.",
    parameters: {
      bucket,
      key,
      expiresInHours: z.int().min(1).max(168).default(24).describe("Hours until the link stops working (at most 7 days)."),
    },
    tags: ["storage", "files", "sharing"],
  }),
  defineDemoTool({
    name: "storage_delete_file",
    summary: "Delete a file from a cloud storage bucket; with versioning the previous versions stay recoverable.",
    description:
      "Removes the object at key. In versioned buckets this adds a delete marker and earlier versions can be restored; otherwise deletion is permanent. Confirm with the user before deleting.",
    parameters: {
      bucket,
      key,
    },
    tags: ["storage", "files", "write", "destructive"],
  }),
];
