/**
 * Review of files (issue 43 item 2): the "to review" page (files/ReviewTodoPage) lists what this
 * exports; the viewer loads its section from ./lazy.
 */
export { useReviewTodo } from './api';
