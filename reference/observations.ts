/**
 * Named kinds of departure, decided by the model where it judges: an observation class says what kind
 * of wrong answer a failure is ("a page with more items than its limit"), and every class belongs to an
 * input class, the kind of request that can show it ("a list with a limit below the number of items the
 * collection holds"). Judges attach the class to a failing judgement and the input class to every
 * judgement of such an input, pass or fail.
 *
 * Why: an expectations entry excuses one class of answer, not a whole clause (a different failure of a
 * listed clause stays a regression), and a run reports a listed departure as gone only when it sent the
 * input that showed it and the answer conformed; otherwise the departure was "not exercised".
 *
 *   limit-ignored -> input limit-below-count: judgePages tags every page-size rule of a list whose
 *   pages held more items than `limit`, passing or not; a page over the limit fails with the class.
 */

export const INPUT_CLASSES = {
  'bare-dryrun': 'a write with a bare ?dryRun (no value) that the real write would accept',
  'limit-below-count': 'a list with a limit below the number of items it returned',
  'exact-read-future-rv': 'an Exact read at a resourceVersion the server has not reached',
  'paged-selector-list': "a list with a label selector and a limit (the suite's own case selector of an all-namespaces list counts)",
  'managed-fields-empty-write': 'a non-apply write whose managedFields is []',
  'managed-fields-reset-with-changes': 'a non-apply write whose managedFields is [{}] together with other changes',
  'json-patch-replace-missing-member': 'a JSON Patch replace of an object member that does not exist',
  'invalid-value': 'a configuration file or command line the spec refuses under this clause',
  'sub-second-duration': 'a duration field set to a non-zero value under one second',
  'apply-empties-list': 'an apply after which a list that held items is left with none, or removed',
  'watch-most-recent': 'a watch with resourceVersion unset (Get State and Start at Most Recent)',
} as const;

export type InputClass = keyof typeof INPUT_CLASSES;

export interface ObservationClass {
  /** The kind of input that shows it (and, answered right, shows it is gone). */
  readonly input: InputClass;
  readonly summary: string;
  /**
   * Set when an input of that kind shows the departure only under conditions the run cannot see (how
   * the server batches keys it does not list): a conforming answer then proves nothing, and the
   * departure is never reported gone, only "not exercised".
   */
  readonly undecidable?: string;
}

export const OBSERVATION_CLASSES = {
  'bare-dryrun-refused': { input: 'bare-dryrun', summary: 'a bare ?dryRun refused (4xx) where the real write succeeds' },
  'limit-ignored': {
    input: 'limit-below-count',
    summary: 'a page with more items than its limit and no continue token: the whole list at once',
  },
  'future-revision-500': {
    input: 'exact-read-future-rv',
    summary: 'an Exact read of a revision not reached answered 500 instead of waiting and 504',
  },
  'selector-page-lost-items': {
    input: 'paged-selector-list',
    summary: 'the pages of a paged selector list miss items of their snapshot, and nothing else differs',
    undecidable:
      'whether a selector list loses items depends on how the store batches the keys of the range, foreign ones included, which no answer shows',
  },
  'empty-managed-fields-resets': {
    input: 'managed-fields-empty-write',
    summary: 'a write with managedFields [] reset the ownership record',
  },
  'reset-with-changes-unowned': {
    input: 'managed-fields-reset-with-changes',
    summary: 'a write with managedFields [{}] and other changes left its writer owning nothing',
  },
  'json-patch-replace-missing-accepted': {
    input: 'json-patch-replace-missing-member',
    summary: 'a JSON Patch replace of a missing object member answered 2xx (as an add)',
  },
  'invalid-accepted': {
    input: 'invalid-value',
    summary: 'a value the spec refuses was accepted',
    // Seen against the kubelet: invalid matchImages refused for a glob in the port, accepted for one in
    // the path; the class alone would have called the entry gone.
    undecidable:
      'a field has many rules and the class does not say which one a target breaks, so other invalid values refused prove nothing about this one',
  },
  'sub-second-duration-refused': { input: 'sub-second-duration', summary: 'a non-zero duration under one second was refused' },
  // Upstream 1.24's structured-merge-diff removes the last item of a list by leaving the list null, not
  // empty; a custom resource schema that says array then refuses the object it built itself.
  'emptied-list-refused': {
    input: 'apply-empties-list',
    summary: 'an apply that leaves a list with no items refused (the server stored the list as null and its schema refused that)',
    // The input class is broader than upstream's trigger: structured-merge-diff leaves null only where
    // its prune keeps the list's own key while removing every item (removingWalker.doList sets no output
    // for an emptied list); where no manager still owns that key the whole field goes, and 1.24 answers
    // 200 like the model. Fresh seeds on every topology sent such applies, answered right, and the entry
    // was called gone while seeds 4336 and 2001513194 still show it.
    undecidable:
      "whether structured-merge-diff keeps the emptied list's key (stored as null, then refused) or drops the field depends on which field paths its prune adds back, which the model's result does not show",
  },
  'watch-start-stale': {
    input: 'watch-most-recent',
    summary:
      'a watch with resourceVersion unset started from a state older than the request (a cache behind the store), then sent every later change in order',
    // A cache lags only when a write lands just before the watch starts: a watch that started fresh
    // shows nothing about the next one.
    undecidable: 'whether a cache is behind when a watch starts depends on timing no answer shows',
  },
} as const satisfies Record<string, ObservationClass>;

export type ObservationClassName = keyof typeof OBSERVATION_CLASSES;

export const isObservationClass = (s: string): s is ObservationClassName => Object.hasOwn(OBSERVATION_CLASSES, s);
export const isInputClass = (s: string): s is InputClass => Object.hasOwn(INPUT_CLASSES, s);

/** The input class an observation class belongs to. */
export const inputOf = (c: ObservationClassName): InputClass => OBSERVATION_CLASSES[c].input;
